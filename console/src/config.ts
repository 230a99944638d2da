/** The console's build-time settings, served beside it as /console/config.json (build.ts). */
export interface ConsoleConfig {
  /** The one-click throwaway wallet: on under `npm run dev`, off in production builds. */
  test_wallet: boolean;
}

export async function loadConfig(): Promise<ConsoleConfig> {
  try {
    const res = await fetch("/console/config.json", { credentials: "omit" });
    if (!res.ok) return { test_wallet: false };
    const body = (await res.json()) as Partial<ConsoleConfig>;
    return { test_wallet: body.test_wallet === true };
  } catch {
    return { test_wallet: false };
  }
}
