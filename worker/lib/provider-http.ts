/**
 * The HTTP side of OpenAI-compatible providers (embeddings and chat): one POST with retries
 * on 429, 5xx, timeouts and network errors, exponential backoff honouring Retry-After.
 * Error bodies are discarded unread: they may echo the API key ("Incorrect API key sk-…").
 */
import { ApiError } from "../errors";

/** Longest Retry-After honoured; a provider asking for more is retried sooner. */
export const MAX_RETRY_AFTER_MS = 2000;

export interface RetryingPost {
  url: string;
  apiKey?: string;
  fetchImpl: typeof fetch;
  timeoutMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  /** The error to throw: `exhausted` is true when every attempt failed on a retryable error. */
  fail: (reason: string, exhausted: boolean) => ApiError;
}

/** The transport options of an OpenAI-compatible provider (embeddings or chat). */
export interface ProviderHttpOptions {
  /** Base URL of the API, e.g. https://api.openai.com/v1; the endpoint's path is appended. */
  baseUrl: string;
  apiKey?: string;
  /** For tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per-attempt timeout; the provider sets the default. */
  timeoutMs?: number;
  /** First retry delay, later ones double; the provider sets the default. */
  backoffBaseMs?: number;
  /** Attempts per request, the first included. Default 3. */
  maxAttempts?: number;
}

/** The POST settings of one provider endpoint: its path, its defaults and its error. */
export interface ProviderEndpoint {
  path: string;
  timeoutMs: number;
  backoffBaseMs: number;
  fail: RetryingPost["fail"];
}

export function retryingPost(
  options: ProviderHttpOptions,
  endpoint: ProviderEndpoint,
): RetryingPost {
  return {
    url: `${options.baseUrl.replace(/\/+$/, "")}${endpoint.path}`,
    apiKey: options.apiKey,
    // Bound so a bare `fetch` reference isn't called with the wrong `this` (workerd throws).
    fetchImpl: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: options.timeoutMs ?? endpoint.timeoutMs,
    maxAttempts: Math.max(1, options.maxAttempts ?? 3),
    backoffBaseMs: options.backoffBaseMs ?? endpoint.backoffBaseMs,
    fail: endpoint.fail,
  };
}

export async function postJsonWithRetry(opts: RetryingPost, body: string): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  let failure = "no attempt made";
  for (let attempt = 1; attempt <= opts.maxAttempts; attempt++) {
    let retryAfterMs: number | undefined;
    try {
      const res = await opts.fetchImpl(opts.url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (res.ok) {
        try {
          return await res.json();
        } catch (err) {
          // A timeout while reading the body is worth a retry; an unparseable body is not.
          if (isTimeout(err)) throw err;
          throw opts.fail("response is not JSON", false);
        }
      }
      await res.body?.cancel();
      failure = `HTTP ${res.status}`;
      if (res.status !== 429 && res.status < 500) throw opts.fail(failure, false);
      retryAfterMs = parseRetryAfter(res.headers.get("retry-after"));
    } catch (err) {
      if (err instanceof ApiError) throw err;
      failure = isTimeout(err)
        ? `timed out after ${opts.timeoutMs} ms`
        : `network error (${describeError(err)})`;
    }
    if (attempt < opts.maxAttempts) {
      await sleep(retryAfterMs ?? opts.backoffBaseMs * 2 ** (attempt - 1));
    }
  }
  throw opts.fail(failure, true);
}

/** Error messages of fetch name the failure, never request headers, so no key can leak. */
export function describeError(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 200);
}

export function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
}

/** Retry-After in seconds (the HTTP-date form is ignored), capped at MAX_RETRY_AFTER_MS. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
