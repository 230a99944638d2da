/**
 * The body of a delivery, as Standard Webhooks lays it out: `{type, timestamp, data}`, here
 * `type` the event's kind, `timestamp` when the change was made, `data` the event as the feed
 * answers it (GET /v1/changes), with `content` when the webhook asked for it. Bounded: a body
 * past MAX_PAYLOAD_BYTES has its content cut and `content_truncated: true`.
 */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

const encoder = new TextEncoder();
const bytes = (s: string) => encoder.encode(s).length;

export function payloadOf(type: string, timestamp: string, data: Record<string, unknown>): string {
  const body = JSON.stringify({ type, timestamp, data });
  const size = bytes(body);
  if (size <= MAX_PAYLOAD_BYTES) return body;
  const content = typeof data.content === "string" ? data.content : "";
  // JSON escapes can make a character longer in the body than in the text: cut by the
  // excess, then check again until it fits (twice at most in practice).
  let keep = Math.max(0, bytes(content) - (size - MAX_PAYLOAD_BYTES) - 64);
  for (;;) {
    const cut = truncateUtf8(content, keep);
    const smaller = JSON.stringify({
      type,
      timestamp,
      data: { ...data, content: cut, content_truncated: true },
    });
    const over = bytes(smaller) - MAX_PAYLOAD_BYTES;
    if (over <= 0) return smaller;
    if (keep === 0) {
      // No content left to cut: the event alone is too large (it never is; its fields are
      // bounded). Send what identifies it.
      const { id, kind, namespace, memory_id, at } = data;
      return JSON.stringify({
        type,
        timestamp,
        data: { id, kind, namespace, memory_id, at, truncated: true },
      });
    }
    keep = Math.max(0, keep - over - 64);
  }
}

/** The longest prefix of `text` of at most `max` UTF-8 bytes, whole characters only. */
function truncateUtf8(text: string, max: number): string {
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const n = bytes(ch);
    if (used + n > max) break;
    used += n;
    end += ch.length;
  }
  return text.slice(0, end);
}
