/**
 * When a failed delivery is tried again: Standard Webhooks' schedule after the first attempt
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), about 27.5 hours in all, so that an endpoint
 * down for a day is disabled (records.ts) before an event's last try. Each delay is within
 * Cloudflare Queues' 12-hour bound. wrangler.toml's max_retries is RETRY_DELAYS.length.
 */
export const RETRY_DELAYS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;

/** Attempts an event gets before the dead-letter queue: the first and every retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;

/** The delay before the retry that follows attempt `attempt` (1-based). */
export function retryDelaySeconds(attempt: number): number {
  const i = Math.min(Math.max(attempt, 1), RETRY_DELAYS.length) - 1;
  return RETRY_DELAYS[i] as number;
}
