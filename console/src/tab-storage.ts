/**
 * What this tab keeps for the signed-in wallet in sessionStorage (this tab, this origin): the
 * session (session.ts), the shared namespace shown (shared.ts) and the jobs it follows
 * (views/insights-jobs.tsx). Each is JSON under a key of its own that starts with
 * `memory-console.`, so signing out forgets them all at once.
 */
const PREFIX = "memory-console.";

export interface TabValue<T> {
  /** The kept value, or null when there is none or it is not of its form (then it is dropped). */
  load(): T | null;
  /** Keeps `value` for this tab; null forgets it. */
  save(value: T | null): void;
}

/**
 * The value kept under `memory-console.<name>`: `read` takes the parsed JSON and gives the
 * value, or null when the JSON is not one.
 */
export function tabValue<T>(name: string, read: (json: unknown) => T | null): TabValue<T> {
  const key = `${PREFIX}${name}`;
  const save = (value: T | null) => {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  };
  const load = () => {
    try {
      const raw = sessionStorage.getItem(key);
      if (raw === null) return null;
      const value = read(JSON.parse(raw));
      if (value === null) save(null);
      return value;
    } catch {
      return null;
    }
  };
  return { load, save };
}

/** Forgets everything this tab kept (on sign-out). */
export function forgetTabValues(): void {
  for (const key of Object.keys(sessionStorage)) {
    if (key.startsWith(PREFIX)) sessionStorage.removeItem(key);
  }
}

/** Whether `json` is an object whose `keys` all hold strings. */
export function hasStrings<K extends string>(
  json: unknown,
  keys: readonly K[],
): json is Record<K, string> & Record<string, unknown> {
  if (typeof json !== "object" || json === null) return false;
  const record = json as Record<string, unknown>;
  return keys.every((key) => typeof record[key] === "string");
}
