/**
 * A WebSocket-shaped wrapper over a Workers TCP socket (`cloudflare:sockets`), handed to the
 * Neon driver as its WebSocket constructor: the driver then speaks the Postgres protocol
 * straight to a Postgres server (the embedded one, a local server, PgBouncer, Hyperdrive), with
 * no WebSocket handshake and no proxy hop. Through the local WebSocket proxy a connection cost
 * 5-7 ms before its first query, and every round trip crossed a Node process.
 *
 * The driver hands it the URL it would open (db/transport.ts makes it
 * `ws://tcp.invalid/v2?address=host:port`). It uses only what is here: `binaryType`,
 * `readyState`, `send`, `close` and the open, message, error and close events.
 */
import type { Transport } from "./transport";

type Sockets = typeof import("cloudflare:sockets");
type Socket = ReturnType<Sockets["connect"]>;

/**
 * Loaded on first use: the module exists only in the Workers runtime, and Node imports this
 * file too (the OpenAPI test builds the app without opening a connection).
 */
let sockets: Promise<Sockets> | undefined;
const loadSockets = () => {
  sockets ??= import("cloudflare:sockets");
  return sockets;
};

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

export class TcpSocketAsWebSocket extends EventTarget {
  binaryType = "arraybuffer";
  readyState = CONNECTING;
  private socket: Socket | undefined;
  private writer: WritableStreamDefaultWriter<Uint8Array> | undefined;

  constructor(url: string) {
    super();
    const address = new URL(url).searchParams.get("address") ?? "";
    const sep = address.lastIndexOf(":");
    loadSockets().then(
      ({ connect }) => {
        if (this.readyState !== CONNECTING) return;
        const socket = connect({
          hostname: address.slice(0, sep),
          port: Number(address.slice(sep + 1)),
        });
        this.socket = socket;
        this.writer = socket.writable.getWriter();
        // A refused connection rejects `opened`; the read loop then ends with the same error.
        socket.opened.then(
          () => {
            if (this.readyState !== CONNECTING) return;
            this.readyState = OPEN;
            this.dispatchEvent(new Event("open"));
          },
          () => {},
        );
        void this.read(socket);
      },
      (err: unknown) => this.fail(err),
    );
  }

  send(data: Uint8Array | ArrayBuffer): void {
    if (this.readyState !== OPEN || !this.writer) return;
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    this.writer.write(bytes).catch((err: unknown) => this.fail(err));
  }

  close(): void {
    if (this.readyState === CLOSING || this.readyState === CLOSED) return;
    this.readyState = CLOSING;
    if (!this.socket) {
      this.closed();
      return;
    }
    this.socket.close().then(
      () => this.closed(),
      () => this.closed(),
    );
  }

  private async read(socket: Socket): Promise<void> {
    const reader = socket.readable.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value && value.byteLength > 0) {
          this.dispatchEvent(new MessageEvent("message", { data: value }));
        }
      }
      this.closed();
    } catch (err) {
      this.fail(err);
    }
  }

  /** The driver reports an "error" event as the failure of what was running, then closes. */
  private fail(err: unknown): void {
    if (this.readyState === CLOSED) return;
    const event = new Event("error");
    Object.defineProperty(event, "error", { value: err });
    this.dispatchEvent(event);
    this.readyState = CLOSING;
    this.socket?.close().catch(() => {});
    this.closed();
  }

  private closed(): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.dispatchEvent(new Event("close"));
  }
}

/** The transport the Worker's settings ask for (Env.DATABASE_TRANSPORT, NEON_WS_PROXY…). */
export function workerTransport(settings: {
  DATABASE_TRANSPORT?: string;
  NEON_WS_PROXY?: string;
  DATABASE_PIPELINE_CONNECT?: string;
}): Transport {
  const pipelineConnect = settings.DATABASE_PIPELINE_CONNECT === "password";
  if (settings.DATABASE_TRANSPORT === "tcp")
    return { socket: TcpSocketAsWebSocket, pipelineConnect };
  return settings.NEON_WS_PROXY ? { wsProxy: settings.NEON_WS_PROXY, pipelineConnect } : {};
}
