/**
 * A front that asks for a cleartext password, as Neon's endpoint and a PgBouncer with
 * `auth_type = plain` do, in front of the suite's Postgres (which trusts every local client).
 * It answers a client's start-up with AuthenticationCleartextPassword, checks the password,
 * then hands the start-up to the real server and pipes both ways.
 *
 * It notes whether each client sent its password before being asked: the Neon driver's
 * pipelined connect (`DATABASE_PIPELINE_CONNECT=password`) does, and saves a round trip. The
 * request for it goes out PIPELINE_WINDOW_MS after the start-up, so a password already there
 * was pipelined. GET /stats on its HTTP port answers `{connections, pipelined, refused}`.
 */
import { createServer as createHttpServer } from "node:http";
import { connect, createServer, type Socket } from "node:net";

export const FRONT_PASSWORD = "front-secret";
const PIPELINE_WINDOW_MS = 50;

export interface PasswordFront {
  /** postgres:// URL with the password, through the front, to the database of `upstreamUrl`. */
  url: string;
  /** http:// base of the stats endpoint. */
  statsUrl: string;
  close(): Promise<void>;
}

/** Length-prefixed messages: the start-up has no type byte, the rest one. */
function takeMessage(buf: Buffer, typed: boolean): [Buffer, Buffer] | undefined {
  const head = typed ? 1 : 0;
  if (buf.length < head + 4) return undefined;
  const end = head + buf.readInt32BE(head);
  return buf.length < end ? undefined : [buf.subarray(0, end), buf.subarray(end)];
}

function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0C${code}\0M${message}\0\0`, "latin1");
  const out = Buffer.alloc(5 + fields.length);
  out.write("E", 0, "latin1");
  out.writeInt32BE(4 + fields.length, 1);
  fields.copy(out, 5);
  return out;
}

const ASK_CLEARTEXT = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]); // 'R', len 8, code 3

export async function startPasswordFront(upstreamUrl: string): Promise<PasswordFront> {
  const upstream = new URL(upstreamUrl);
  const stats = { connections: 0, pipelined: 0, refused: 0 };
  const sockets = new Set<Socket>();

  const server = createServer({ noDelay: true }, (client) => {
    sockets.add(client);
    stats.connections++;
    let pending: Buffer = Buffer.alloc(0);
    let startup: Buffer | undefined;
    let asked = false;
    let passwordSeen = false;
    const onData = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (!startup) {
        const taken = takeMessage(pending, false);
        if (!taken) return;
        [startup, pending] = taken;
        if (startup.readInt32BE(4) === 80877103) {
          // SSLRequest: no TLS here; the client goes on in plain text.
          startup = undefined;
          client.write("N");
          return onData(Buffer.alloc(0));
        }
        setTimeout(() => {
          asked = true;
          if (!passwordSeen) client.write(ASK_CLEARTEXT);
        }, PIPELINE_WINDOW_MS);
      }
      const taken = takeMessage(pending, true);
      if (!taken) return;
      const [message, rest] = taken;
      passwordSeen = true;
      client.off("data", onData);
      const password = message.subarray(5, message.length - 1).toString("utf8");
      if (message[0] !== 0x70 || password !== FRONT_PASSWORD) {
        stats.refused++;
        client.end(errorResponse("28P01", "password authentication failed"));
        return;
      }
      if (!asked) stats.pipelined++;
      const real = connect(Number(upstream.port), upstream.hostname);
      sockets.add(real);
      real.setNoDelay(true);
      // The real server trusts us: its AuthenticationOk answers the client's password.
      real.write(startup as Buffer);
      if (rest.length > 0) real.write(rest);
      client.pipe(real);
      real.pipe(client);
      real.on("error", () => client.destroy());
      real.on("close", () => {
        sockets.delete(real);
        client.destroy();
      });
      client.on("close", () => real.destroy());
    };
    client.on("data", onData);
    client.on("error", () => client.destroy());
    client.on("close", () => sockets.delete(client));
  });
  const http = createHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(stats));
  });
  const listen = (s: { listen: (port: number, host: string, cb: () => void) => unknown }) =>
    new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  await Promise.all([listen(server), listen(http)]);
  const port = (server.address() as { port: number }).port;
  const httpPort = (http.address() as { port: number }).port;
  const url = new URL(upstreamUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  url.password = FRONT_PASSWORD;
  return {
    url: url.toString(),
    statsUrl: `http://127.0.0.1:${httpPort}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => http.close(r))]);
    },
  };
}
