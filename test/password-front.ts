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
import { errorResponse, readUntyped, SSL_REQUEST, splitMessages } from "../local/db/wire";

export const FRONT_PASSWORD = "front-secret";
const PIPELINE_WINDOW_MS = 50;

export interface PasswordFront {
  /** postgres:// URL with the password, through the front, to the database of `upstreamUrl`. */
  url: string;
  /** http:// base of the stats endpoint. */
  statsUrl: string;
  close(): Promise<void>;
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
        const head = readUntyped(pending);
        if (!head) return;
        const message = pending.subarray(0, head.length);
        pending = pending.subarray(head.length);
        if (head.code === SSL_REQUEST) {
          // No TLS here; the client goes on in plain text.
          client.write("N");
          return onData(Buffer.alloc(0));
        }
        startup = message;
        setTimeout(() => {
          asked = true;
          if (!passwordSeen) client.write(ASK_CLEARTEXT);
        }, PIPELINE_WINDOW_MS);
      }
      const { messages, rest: after } = splitMessages(pending);
      const [message, ...others] = messages;
      if (!message) return;
      const rest = Buffer.concat([...others.map((m) => m.bytes), after]);
      passwordSeen = true;
      client.off("data", onData);
      const password = message.bytes.subarray(5, message.bytes.length - 1).toString("utf8");
      if (message.type !== "p" || password !== FRONT_PASSWORD) {
        stats.refused++;
        client.end(errorResponse("FATAL", "28P01", "password authentication failed"));
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
