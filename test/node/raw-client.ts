/**
 * A deliberately low-level Postgres client for protocol tests: it sends exactly the
 * messages a test names, in the chunks it names, so tests can interleave clients at the
 * wire level in ways a driver never would.
 */
import { connect, type Socket } from "node:net";

const cstr = (s: string) => Buffer.from(`${s}\0`, "utf8");

function msg(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

export const m = {
  parse: (name: string, sql: string) => msg("P", cstr(name), cstr(sql), int16(0)),
  /** Bind with text parameters and text results. */
  bind: (portal: string, statement: string, params: string[] = []) =>
    msg(
      "B",
      cstr(portal),
      cstr(statement),
      int16(0),
      int16(params.length),
      ...params.flatMap((p) => [int32(Buffer.byteLength(p)), Buffer.from(p)]),
      int16(0),
    ),
  execute: (portal = "") => msg("E", cstr(portal), int32(0)),
  describePortal: (portal = "") => msg("D", Buffer.from("P"), cstr(portal)),
  sync: () => msg("S"),
  flush: () => msg("H"),
  query: (sql: string) => msg("Q", cstr(sql)),
  terminate: () => msg("X"),
};

export interface Reply {
  /** Text values of every DataRow, row by row. */
  rows: Array<Array<string | null>>;
  /** SQLSTATE and message of each ErrorResponse. */
  errors: Array<{ code: string; message: string; severity: string }>;
  /** Transaction status of the ReadyForQuery that ended the reply. */
  status: string;
}

export class RawClient {
  private buffer = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.on("data", (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on("close", () => {
      this.closed = true;
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on("error", () => {});
  }

  static async connect(port: number): Promise<RawClient> {
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    const client = new RawClient(socket);
    const params = Buffer.concat([
      cstr("user"),
      cstr("postgres"),
      cstr("database"),
      cstr("postgres"),
      Buffer.from([0]),
    ]);
    socket.write(Buffer.concat([int32(params.length + 8), int32(196608), params]));
    await client.reply();
    return client;
  }

  send(...messages: Buffer[]): void {
    this.socket.write(Buffer.concat(messages));
  }

  /** Reads messages up to the next ReadyForQuery (or until the server hangs up). */
  async reply(): Promise<Reply> {
    const out: Reply = { rows: [], errors: [], status: "" };
    for (;;) {
      while (this.buffer.length >= 5) {
        const length = this.buffer.readInt32BE(1);
        if (this.buffer.length < length + 1) break;
        const type = String.fromCharCode(this.buffer[0] ?? 0);
        const body = this.buffer.subarray(5, length + 1);
        this.buffer = this.buffer.subarray(length + 1);
        if (type === "D") out.rows.push(dataRow(body));
        if (type === "E") out.errors.push(errorFields(body));
        if (type === "Z") {
          out.status = String.fromCharCode(body[0] ?? 0);
          return out;
        }
      }
      if (this.closed) return out;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Whether any byte arrives within `ms`. */
  async answersWithin(ms: number): Promise<boolean> {
    if (this.buffer.length > 0) return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Runs one simple query and returns its reply. */
  async query(sql: string): Promise<Reply> {
    this.send(m.query(sql));
    return this.reply();
  }

  end(): void {
    this.send(m.terminate());
    this.socket.end();
  }
}

function dataRow(body: Buffer): Array<string | null> {
  const count = body.readInt16BE(0);
  const values: Array<string | null> = [];
  let at = 2;
  for (let i = 0; i < count; i++) {
    const len = body.readInt32BE(at);
    at += 4;
    if (len < 0) values.push(null);
    else {
      values.push(body.toString("utf8", at, at + len));
      at += len;
    }
  }
  return values;
}

function errorFields(body: Buffer): { code: string; message: string; severity: string } {
  const fields: Record<string, string> = {};
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const key = String.fromCharCode(body[at] ?? 0);
    const end = body.indexOf(0, at + 1);
    fields[key] = body.toString("utf8", at + 1, end);
    at = end + 1;
  }
  return { code: fields.C ?? "", message: fields.M ?? "", severity: fields.S ?? "" };
}
