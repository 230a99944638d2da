/**
 * The few pieces of the Postgres wire protocol (v3) that the embedded database's front
 * (front.ts) needs: splitting a client's byte stream into messages, giving each client its
 * own namespace of prepared-statement and portal names, and the handful of backend messages
 * the front writes itself. https://www.postgresql.org/docs/current/protocol-message-formats.html
 */

/** Codes of the untyped first messages a client may send. */
export const PROTOCOL_3 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;

/** Frontend messages after which a client waits for an answer: a unit ends at one of them. */
const UNIT_ENDS = new Set(["S", "Q", "H", "F", "c", "f"]);

/** Frontend messages that end with the server's ReadyForQuery. */
const SYNC_POINTS = new Set(["S", "Q", "F", "c", "f"]);

export interface FrontendMessage {
  type: string;
  /** The whole message: type byte, length, body. */
  bytes: Buffer;
}

export const endsUnit = (m: FrontendMessage): boolean => UNIT_ENDS.has(m.type);
export const isSyncPoint = (m: FrontendMessage): boolean => SYNC_POINTS.has(m.type);

/**
 * Splits complete typed messages off the front of `buffer`; returns them and the bytes left
 * over (an incomplete message waiting for more data).
 */
export function splitMessages(buffer: Buffer): { messages: FrontendMessage[]; rest: Buffer } {
  const messages: FrontendMessage[] = [];
  let offset = 0;
  while (buffer.length - offset >= 5) {
    const length = buffer.readInt32BE(offset + 1);
    if (length < 4) throw new Error(`malformed message length ${length}`);
    const end = offset + 1 + length;
    if (end > buffer.length) break;
    messages.push({
      type: String.fromCharCode(buffer[offset] ?? 0),
      bytes: buffer.subarray(offset, end),
    });
    offset = end;
  }
  return { messages, rest: buffer.subarray(offset) };
}

/** Reads the untyped first message (startup, SSL, cancel): its code and total length. */
export function readUntyped(buffer: Buffer): { length: number; code: number } | undefined {
  if (buffer.length < 8) return undefined;
  const length = buffer.readInt32BE(0);
  if (length < 8 || length > 10_000) throw new Error(`malformed startup length ${length}`);
  if (buffer.length < length) return undefined;
  return { length, code: buffer.readInt32BE(4) };
}

/** Reads a NUL-terminated string at `offset`: the string and the offset after its NUL. */
function cstring(body: Buffer, offset: number): [string, number] {
  const end = body.indexOf(0, offset);
  if (end < 0) throw new Error("unterminated string in message");
  return [body.toString("utf8", offset, end), end + 1];
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const z = (s: string) => Buffer.from(`${s}\0`, "utf8");

/**
 * Prepared statements and portals live in the one PGlite session that every client shares.
 * Each client's non-empty names get its own prefix, so two clients that both prepare "s1"
 * neither collide nor run each other's statement. The unnamed statement and portal keep
 * their name: the front runs a client's Parse…Sync as one unit and clears them between
 * clients (front.ts). Returns the message unchanged when it names nothing.
 */
export function scopeNames(m: FrontendMessage, prefix: string): FrontendMessage {
  const body = m.bytes.subarray(5);
  const scoped = (name: string) => (name === "" ? "" : `${prefix}${name}`);
  switch (m.type) {
    case "P":
    case "E": {
      // Parse: statement name, query, parameter types. Execute: portal name, row limit.
      const [name, next] = cstring(body, 0);
      if (name === "") return m;
      return {
        type: m.type,
        bytes: message(m.type, Buffer.concat([z(scoped(name)), body.subarray(next)])),
      };
    }
    case "B": {
      // Bind: portal name, statement name, the rest.
      const [portal, afterPortal] = cstring(body, 0);
      const [statement, next] = cstring(body, afterPortal);
      if (portal === "" && statement === "") return m;
      const head = Buffer.concat([z(scoped(portal)), z(scoped(statement))]);
      return { type: "B", bytes: message("B", Buffer.concat([head, body.subarray(next)])) };
    }
    case "D":
    case "C": {
      // Describe / Close: 'S' or 'P', then the name.
      const [name] = cstring(body, 1);
      if (name === "") return m;
      return {
        type: m.type,
        bytes: message(m.type, Buffer.concat([body.subarray(0, 1), z(scoped(name))])),
      };
    }
    default:
      return m;
  }
}

/** The statement name a Parse message creates ("" for the unnamed one). */
export function parsedName(m: FrontendMessage): string | undefined {
  return m.type === "P" ? cstring(m.bytes.subarray(5), 0)[0] : undefined;
}

/** The statement name a Bind message runs ("" for the unnamed one). */
export function boundName(m: FrontendMessage): string | undefined {
  if (m.type !== "B") return undefined;
  const body = m.bytes.subarray(5);
  return cstring(body, cstring(body, 0)[1])[0];
}

/** The SQL text of a simple Query or a Parse message. */
export function sqlText(m: FrontendMessage): string | undefined {
  const body = m.bytes.subarray(5);
  if (m.type === "Q") return cstring(body, 0)[0];
  if (m.type === "P") return cstring(body, cstring(body, 0)[1])[0];
  return undefined;
}

/** Whether a statement opens a transaction (BEGIN, START TRANSACTION). */
export function opensTransaction(text: string | undefined): boolean {
  return text !== undefined && /^\s*(begin|start\s+transaction)\b/i.test(text);
}

/**
 * Whether a statement changes session state that would outlive its transaction: SET
 * (not SET LOCAL), RESET, DISCARD. Such state is replayed per client (front.ts).
 */
export function setsSessionState(text: string): boolean {
  return /^\s*(set\s+(?!local\s)|reset\s|discard\s)/i.test(text);
}

export const simpleQuery = (sql: string): Buffer => message("Q", z(sql));
export const sync = (): Buffer => message("S", Buffer.alloc(0));
export const closeStatement = (name: string): Buffer =>
  message("C", Buffer.concat([Buffer.from("S"), z(name)]));
export const closePortal = (name: string): Buffer =>
  message("C", Buffer.concat([Buffer.from("P"), z(name)]));

/** ReadyForQuery with a transaction status: I idle, T in a transaction, E failed one. */
export const readyForQuery = (status: "I" | "T" | "E"): Buffer =>
  message("Z", Buffer.from(status, "latin1"));

/** An ErrorResponse with severity, SQLSTATE and message. */
export function errorResponse(severity: "ERROR" | "FATAL", code: string, text: string): Buffer {
  return message(
    "E",
    Buffer.concat([
      z(`S${severity}`),
      z(`V${severity}`),
      z(`C${code}`),
      z(`M${text}`),
      Buffer.from([0]),
    ]),
  );
}

/** The startup packet the front itself sends PGlite once, to learn what a server says back. */
export function startupPacket(params: Record<string, string>): Buffer {
  const pairs = Object.entries(params).flatMap(([k, v]) => [z(k), z(v)]);
  const body = Buffer.concat([...pairs, Buffer.from([0])]);
  const head = Buffer.alloc(8);
  head.writeInt32BE(body.length + 8, 0);
  head.writeInt32BE(PROTOCOL_3, 4);
  return Buffer.concat([head, body]);
}

/** CloseComplete, as the backend answers each Close: '3' and a length of 4. */
export const CLOSE_COMPLETE = Buffer.from([0x33, 0, 0, 0, 4]);

/**
 * The transaction status of the ReadyForQuery that ends `tail` (the last bytes a unit
 * produced), or undefined when the output does not end with one (a Flush, COPY IN).
 */
export function trailingStatus(tail: Buffer): "I" | "T" | "E" | undefined {
  if (tail.length < 6) return undefined;
  const at = tail.length - 6;
  if (tail[at] !== 0x5a || tail.readInt32BE(at + 1) !== 5) return undefined;
  const status = String.fromCharCode(tail[at + 5] ?? 0);
  return status === "I" || status === "T" || status === "E" ? status : undefined;
}
