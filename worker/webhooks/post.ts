/**
 * One HTTP attempt at a webhook: the target checked again (DNS answers change), the body
 * signed, POSTed with `redirect: "manual"` (a 3xx is a failure, never followed: it could point
 * anywhere), bounded by DELIVERY_TIMEOUT_MS, and at most ERROR_BYTES of a failed answer read
 * for the record. Never throws: every failure is an Attempt with its reason.
 */
import { signedHeaders } from "./sign";
import { checkTarget, type TargetPolicy } from "./url-safety";

export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a failed answer's body is kept in its record. */
const ERROR_BYTES = 256;

export interface Attempt {
  ok: boolean;
  /** The endpoint's HTTP status; null when none came. */
  status: number | null;
  error: string | null;
  latency_ms: number;
}

export async function postWebhook(
  target: { url: string; secret: string },
  id: string,
  body: string,
  policy: TargetPolicy,
): Promise<Attempt> {
  const verdict = await checkTarget(target.url, policy);
  if (!verdict.ok) {
    return { ok: false, status: null, error: `target refused: ${verdict.reason}`, latency_ms: 0 };
  }
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let res: Response;
  try {
    res = await fetch(verdict.url.toString(), {
      method: "POST",
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        "content-type": "application/json",
        "user-agent": "memory-service-webhooks/1",
        ...signedHeaders(target.secret, id, body),
      },
    });
  } catch (err) {
    const timedOut =
      err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    const error = timedOut
      ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
      : `connection failed: ${err instanceof Error ? err.message.slice(0, 200) : "unknown error"}`;
    return { ok: false, status: null, error, latency_ms: elapsed() };
  }
  const latency = elapsed();
  if (res.status >= 200 && res.status < 300) {
    await res.body?.cancel().catch(() => undefined);
    return { ok: true, status: res.status, error: null, latency_ms: latency };
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel().catch(() => undefined);
    const location = (res.headers.get("location") ?? "").slice(0, 200);
    return {
      ok: false,
      status: res.status,
      error: `redirect not followed${location ? ` (to ${location})` : ""}: answer the webhook URL itself with 2xx`,
      latency_ms: latency,
    };
  }
  const snippet = await firstBytes(res, ERROR_BYTES);
  return {
    ok: false,
    status: res.status,
    error: `HTTP ${res.status}${snippet ? `: ${snippet}` : ""}`,
    latency_ms: latency,
  };
}

/** Up to `max` bytes of the body as text; the rest is never read. */
async function firstBytes(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A body that fails midway: what came is enough.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder()
    .decode(all.slice(0, max))
    .replace(/\uFFFD$/, "")
    .replace(/\s+/g, " ")
    .trim();
}
