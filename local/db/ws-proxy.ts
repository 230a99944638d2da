/**
 * A WebSocket-to-TCP proxy so the Neon serverless driver can reach a plain Postgres
 * (embedded PGlite or a local server), the way Neon's own proxy does in production.
 * Each WebSocket names its target as `?address=host:port`; only loopback targets are allowed.
 */
import { connect } from "node:net";
import { type Client, neonConfig } from "@neondatabase/serverless";
import ws, { WebSocketServer } from "ws";
import { clientFor } from "../../worker/db/transport";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

export interface WsProxy {
  port: number;
  close(): Promise<void>;
}

export async function startWsProxy(port = 0, host = "127.0.0.1"): Promise<WsProxy> {
  const wss = new WebSocketServer({ host, port });
  await new Promise<void>((resolve, reject) => {
    wss.once("listening", resolve);
    wss.once("error", reject);
  });
  wss.on("connection", (ws, req) => {
    const address = new URL(req.url ?? "/", "http://proxy").searchParams.get("address") ?? "";
    const sep = address.lastIndexOf(":");
    const targetHost = address.slice(0, sep);
    const targetPort = Number(address.slice(sep + 1));
    if (!LOOPBACK.has(targetHost) || !Number.isInteger(targetPort)) {
      ws.close(1008, "only loopback Postgres targets are proxied");
      return;
    }
    const socket = connect(targetPort, targetHost);
    socket.setNoDelay(true);
    socket.on("data", (chunk) => ws.send(chunk));
    socket.on("close", () => ws.close());
    socket.on("error", () => ws.close());
    ws.on("message", (data) => {
      const chunk = data as Buffer;
      socket.write(chunk);
      // The Neon driver never closes its WebSocket after sending Terminate (pg passes end()'s
      // callback where the driver's socket expects an encoding), so the proxy ends the TCP
      // side itself; otherwise every pooled connection would stay open until the Worker's
      // isolate goes away.
      if (endsWithTerminate(chunk)) socket.end();
    });
    ws.on("close", () => socket.destroy());
    ws.on("error", () => socket.destroy());
  });
  const address = wss.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    port: actualPort,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** The frontend Terminate message: 'X' and a length of 4. */
const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);

function endsWithTerminate(chunk: Buffer): boolean {
  return (
    chunk.length >= TERMINATE.length &&
    chunk.subarray(chunk.length - TERMINATE.length).equals(TERMINATE)
  );
}

/**
 * A Neon driver client (in Node) whose connection goes through `proxy`. The route is the
 * client's own (db/transport.ts), not the driver's module-level config, which other scripts
 * of the same process point elsewhere.
 */
export function proxiedClient(url: string, proxy: WsProxy): Client {
  neonConfig.webSocketConstructor ??= ws;
  const Routed = clientFor({ wsProxy: `127.0.0.1:${proxy.port}` });
  return new Routed(url);
}
