/**
 * A Postgres wire-protocol server in front of PGlite, safe for many concurrent clients.
 *
 * PGlite is one Postgres backend: one session that every client shares. pglite-socket's
 * server interleaves single protocol messages of different clients on it, so one client
 * can bind or execute another's statement (wrong rows) or find it gone. This front gives
 * each client the illusion of a session of its own:
 *   - A client's messages up to a point where it waits for an answer (Sync, a simple
 *     Query, Flush…) run as one unit; no other client's message comes in between.
 *   - A client in a transaction (or in the middle of an extended-protocol run) keeps the
 *     database until it is idle again: the others wait in a FIFO, with a timeout after which
 *     their unit fails with SQLSTATE 55P03 (never a refused connection).
 *   - Named prepared statements and portals are prefixed per client (wire.ts scopeNames);
 *     the unnamed ones are closed when the database passes to another client; session
 *     settings a client SETs are reset and replayed per client.
 *   - A client that disconnects mid-transaction is rolled back; one idle in a transaction
 *     for too long is rolled back and disconnected (as idle_in_transaction_session_timeout).
 * Protocol tests: test/local/db/front.test.ts.
 */
import { createServer, type Server, type Socket } from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { Connection, type ConnectionHost } from "./connection";
import { DatabaseLock } from "./lock";
import { simpleQuery, startupPacket, trailingStatus } from "./wire";

export interface FrontOptions {
  db: PGlite;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** SQL that sets the session's defaults; run at start and whenever settings are reset. */
  sessionDefaults?: string;
  /** How long a client's unit may wait for another client's transaction (then 55P03). */
  lockTimeoutMs?: number;
  /** A transaction whose client sends nothing for this long is rolled back (then 25P03). */
  idleInTransactionMs?: number;
  log?: (line: string) => void;
}

export interface FrontStats {
  connections: number;
  waiting: number;
  units: number;
  refused: number;
}

export class PGliteFront implements ConnectionHost {
  readonly db: PGlite;
  readonly lock = new DatabaseLock<Connection>();
  readonly lockTimeoutMs: number;
  readonly idleInTransactionMs: number;
  readonly log: (line: string) => void;
  private readonly host: string;
  private readonly port: number;
  private readonly sessionDefaults: string;
  private readonly connections = new Set<Connection>();
  private server: Server | undefined;
  private nextId = 1;
  /** What PGlite answers a startup packet; every client gets the same. */
  startupReply = Buffer.alloc(0);
  /** The client that ran the last unit: its unnamed statement and portal may still exist. */
  lastRunner: Connection | undefined;
  /** The client whose SET statements the session currently reflects. */
  private settingsOf: Connection | undefined;
  units = 0;
  refused = 0;

  constructor(opts: FrontOptions) {
    this.db = opts.db;
    this.host = opts.host ?? "127.0.0.1";
    this.port = opts.port ?? 0;
    this.sessionDefaults = opts.sessionDefaults ?? "";
    this.lockTimeoutMs = opts.lockTimeoutMs ?? 30_000;
    this.idleInTransactionMs = opts.idleInTransactionMs ?? 60_000;
    this.log = opts.log ?? (() => {});
  }

  /** Starts listening; resolves to the port. */
  async start(): Promise<number> {
    await this.db.waitReady;
    if (this.sessionDefaults) await this.db.exec(this.sessionDefaults);
    this.startupReply = Buffer.from(
      await this.db.execProtocolRaw(startupPacket({ user: "postgres", database: "postgres" })),
    );
    if (trailingStatus(this.startupReply) !== "I")
      throw new Error("PGlite refused a startup packet");
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, this.host, () => resolve());
    });
    const address = server.address();
    if (!address || typeof address !== "object") throw new Error("front has no TCP address");
    return address.port;
  }

  /** Stops listening, disconnects every client (rolling back their transactions). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closing = server
      ? new Promise<void>((resolve) => server.close(() => resolve()))
      : undefined;
    await Promise.all([...this.connections].map((c) => c.close()));
    await closing;
  }

  stats(): FrontStats {
    return {
      connections: this.connections.size,
      waiting: this.lock.waiting,
      units: this.units,
      refused: this.refused,
    };
  }

  forget(conn: Connection): void {
    this.connections.delete(conn);
    this.lock.forget(conn);
    if (this.lastRunner === conn) this.lastRunner = undefined;
  }

  /** Runs raw protocol bytes on PGlite, streaming the answer to `onData`. */
  async run(bytes: Buffer, onData: (chunk: Buffer) => void = () => {}): Promise<void> {
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(bytes, { onRawData: (chunk) => onData(Buffer.from(chunk)) }),
    );
  }

  /**
   * Called when `conn` takes the database from another client: puts the session's settings
   * back to the defaults plus what `conn` itself SET, if either side ever SET anything.
   */
  async handOver(conn: Connection): Promise<void> {
    const current = this.settingsOf;
    if (current === conn) return;
    if ((current?.sessionSql.length ?? 0) > 0 || conn.sessionSql.length > 0) {
      const replay = ["RESET ALL", this.sessionDefaults, ...conn.sessionSql].filter(Boolean);
      await this.run(simpleQuery(replay.join(";\n")));
    }
    this.settingsOf = conn;
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    const conn = new Connection(this, this.nextId++, socket);
    this.connections.add(conn);
  }
}
