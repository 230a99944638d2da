/**
 * How a pool's connections reach the database. The Neon driver speaks Postgres over a
 * WebSocket: to Neon's own endpoint in production (nothing to set), or to a local
 * WebSocket-to-TCP proxy (local/db/ws-proxy.ts) in front of a plain Postgres. Or, with a
 * socket of our own (db/tcp-socket.ts, Workers TCP sockets shaped as a WebSocket), straight
 * to the Postgres of the URL. The settings are made per connection (the driver's client-level
 * options), not on the driver's module-level config, so pools with different transports can
 * live in one isolate (the tests run the Worker with both).
 */
import { Client } from "@neondatabase/serverless";

/** A WebSocket-shaped class: constructed with a URL, it emits open, message, error, close. */
export type SocketClass = new (url: string) => EventTarget;

export interface Transport {
  /** host:port of a local WebSocket-to-TCP proxy. */
  wsProxy?: string;
  /** A WebSocket-shaped class the driver connects through instead of a WebSocket. */
  socket?: SocketClass;
  /**
   * Send the password with the start-up (Env.DATABASE_PIPELINE_CONNECT). Neon's own endpoint
   * gets it always (the driver's default); through a proxy or socket of ours only when asked.
   */
  pipelineConnect?: boolean;
}

/**
 * The driver batches a connection's writes and sends them from a timer (coalesceWrites). When
 * the connection closed in between, WebSocket.send threw from that timer, an uncaught
 * exception outside any request. The query that wrote already fails with the close, so a
 * send on a closing or closed socket is dropped instead. (Node 20 has no WebSocket: scripts
 * give the driver the `ws` package's.)
 */
function guardedWebSocket(): SocketClass | undefined {
  if (typeof WebSocket === "undefined") return undefined;
  return class GuardedWebSocket extends WebSocket {
    override send(data: Parameters<WebSocket["send"]>[0]): void {
      if (this.readyState === WebSocket.CLOSING || this.readyState === WebSocket.CLOSED) return;
      super.send(data);
    }
  };
}

/** A driver Client class whose connections go the transport's way. */
export function clientFor(transport: Transport): typeof Client {
  const socket = transport.socket ?? guardedWebSocket();
  // The driver asks for a WebSocket URL: the proxy's, or one that only carries the address
  // for the socket class to read.
  const relay = transport.socket ? "tcp.invalid" : transport.wsProxy;
  return class TransportClient extends Client {
    constructor(config: ConstructorParameters<typeof Client>[0]) {
      super(config);
      const settings = this.neonConfig;
      if (socket) settings.webSocketConstructor = socket as unknown as typeof WebSocket;
      if (relay) {
        settings.wsProxy = (host, port) => `${relay}/v2?address=${host}:${port}`;
        settings.useSecureWebSocket = false;
        settings.pipelineTLS = false;
        // With pipelining on, a Postgres that asks for no password answers "invalid frontend
        // message type 112": on only for a server that asks for a cleartext one.
        settings.pipelineConnect = transport.pipelineConnect ? "password" : false;
      }
    }
  };
}
