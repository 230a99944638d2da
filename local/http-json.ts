/**
 * JSON over node:http, for the local embedding process and the fake providers of the bench
 * and the tests: a request's body as text, with an optional limit, and a JSON answer.
 * Imports nothing of this repository.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The request's body as text. Past `maxBytes` the rest is read and dropped, so that the
 * caller can still answer (413), and the promise fails with `tooLarge()`.
 */
export function readBody(
  req: IncomingMessage,
  limit: { maxBytes: number; tooLarge: () => Error } = {
    maxBytes: Number.POSITIVE_INFINITY,
    tooLarge: () => new Error("body too large"),
  },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit.maxBytes) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > limit.maxBytes) reject(limit.tooLarge());
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

/** Answers with `payload` as JSON; nothing when the answer has begun or the socket is gone. */
export function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** A server listening on a free loopback port: its base URL, and how to stop it. */
export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

/** Listens with `server` on a free port of 127.0.0.1 (the fake providers of the tests). */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive sockets from workerd would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
