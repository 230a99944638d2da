/** Small shared pieces: error notices, loading and action state, dates, wallets, tags. */
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api";

/** Any failure, with the API's code, message and request id when it came from the API. */
export function ErrorNotice({ error, context }: { error: unknown; context?: string }) {
  if (!error) return null;
  if (error instanceof ApiError) {
    const issues = issuesOf(error.details);
    return (
      <div class="notice error" role="alert" data-testid="api-error">
        <p>
          {context ? `${context}: ` : ""}
          <strong class="error-code">{error.code}</strong>
          {error.status > 0 ? ` (HTTP ${error.status})` : ""}: <span>{error.message}</span>
        </p>
        {issues.length > 0 && (
          <ul>
            {issues.map((issue) => (
              <li key={`${issue.path}:${issue.message}`}>
                <code>{issue.path || "(body)"}</code>: {issue.message}
              </li>
            ))}
          </ul>
        )}
        {error.requestId && (
          <p class="request-id">
            Request id: <code data-testid="request-id">{error.requestId}</code>
          </p>
        )}
      </div>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div class="notice error" role="alert" data-testid="api-error">
      <p>
        {context ? `${context}: ` : ""}
        {message}
      </p>
    </div>
  );
}

function issuesOf(details: unknown): Array<{ path: string; message: string }> {
  if (typeof details !== "object" || details === null) return [];
  const issues = (details as { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return [];
  return issues.flatMap((i) =>
    typeof i === "object" && i !== null && "message" in i
      ? [{ path: String((i as { path?: unknown }).path ?? ""), message: String(i.message) }]
      : [],
  );
}

/** A polite live region: screen readers hear what an action did. */
export function Status({ children }: { children: ComponentChildren }) {
  return (
    <p class="status" role="status" aria-live="polite">
      {children}
    </p>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` when `key` changes (and on reload()); a late answer for an older key is
 * dropped, so fast clicking never shows stale data.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error: unknown; loading: boolean }>({
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ error, loading: false });
      },
    );
    return () => controller.abort();
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export interface Task {
  /** The name of the work under way, or null. */
  running: string | null;
  busy: boolean;
  /** What the last run threw (cleared when the next one starts). */
  error: unknown;
  setError: (error: unknown) => void;
  /** Runs `work`; `name` tells apart the buttons that may start it (see `running`). */
  run: (work: () => Promise<void>, name?: string) => Promise<void>;
}

/** An action a button starts: busy while it runs, and what it threw, for an ErrorNotice. */
export function useTask(): Task {
  const [running, setRunning] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<void>, name = "task") => {
    setRunning(name);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setRunning(null);
    }
  };
  return { running, busy: running !== null, error, setError, run };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Local date and time to the minute; the full ISO time on hover and for machines. */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span class="muted">never</span>;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <span>{iso}</span>;
  const text = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return (
    <time dateTime={iso} title={iso}>
      {text}
    </time>
  );
}

/** A wallet address as 0x1234…abcd; the whole address on hover and for machines. */
export function Wallet({ address }: { address: string | null | undefined }) {
  if (!address) return <span class="muted">unknown</span>;
  const short = address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
  return (
    <code class="wallet" title={address}>
      {short}
    </code>
  );
}

export function Tags({ tags }: { tags: readonly string[] | undefined }) {
  if (!tags || tags.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="tags" aria-label="tags">
      {tags.map((t) => (
        <li key={t}>{t}</li>
      ))}
    </ul>
  );
}

export const num = (n: number | null | undefined, digits = 3) =>
  typeof n === "number" && Number.isFinite(n) ? n.toFixed(digits) : "–";

export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The tags of a memory (the `tags` column, else metadata.tags). */
export function tagsOf(memory: { tags?: string[]; metadata?: Record<string, unknown> }): string[] {
  if (memory.tags) return memory.tags;
  const meta = memory.metadata?.tags;
  return Array.isArray(meta) ? meta.filter((t): t is string => typeof t === "string") : [];
}

export const splitList = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
