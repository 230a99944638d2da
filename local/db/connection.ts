/**
 * One client of the embedded database's front (front.ts): its byte stream, its units (its
 * messages up to a Sync, a simple Query or a Flush, run without another client's in between)
 * and its hold on the database while it is in a transaction. What it creates on the shared
 * session is kept by client-names.ts.
 */
import type { Socket } from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { ClientNames } from "./client-names";
import type { DatabaseLock } from "./lock";
import {
  CANCEL_REQUEST,
  CLOSE_COMPLETE,
  closePortal,
  closeStatement,
  endsUnit,
  errorResponse,
  type FrontendMessage,
  GSSENC_REQUEST,
  isSyncPoint,
  opensTransaction,
  PROTOCOL_3,
  readUntyped,
  readyForQuery,
  SSL_REQUEST,
  simpleQuery,
  splitMessages,
  sqlText,
  sync,
  trailingStatus,
} from "./wire";

/** What a connection needs of the front that accepted it (front.ts PGliteFront). */
export interface ConnectionHost {
  readonly db: PGlite;
  readonly lock: DatabaseLock<Connection>;
  readonly lockTimeoutMs: number;
  readonly idleInTransactionMs: number;
  readonly log: (line: string) => void;
  readonly startupReply: Buffer;
  /** The client that ran the last unit: its unnamed statement and portal may still exist. */
  lastRunner: Connection | undefined;
  units: number;
  refused: number;
  run(bytes: Buffer, onData?: (chunk: Buffer) => void): Promise<void>;
  handOver(conn: Connection): Promise<void>;
  forget(conn: Connection): void;
}

type Status = "I" | "T" | "E";

/** One client connection: its byte stream, its pending units and its hold on the database. */
export class Connection {
  /** What it has created on the shared session (statements, SETs). */
  private readonly names: ClientNames;
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  private pending: FrontendMessage[] = [];
  private holding = false;
  /** A unit ended with Flush and no Sync yet: an extended-protocol run is still open. */
  private midRun = false;
  /** After a refused unit that ended in Flush: drop messages until the client's Sync. */
  private skipping = false;
  private closed = false;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** This connection's work, one step at a time. */
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly front: ConnectionHost,
    readonly id: number,
    private readonly socket: Socket,
  ) {
    this.names = new ClientNames(`c${id}_`);
    socket.on("data", (chunk) => this.receive(chunk));
    socket.on("close", () => void this.close());
    socket.on("error", () => void this.close());
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    this.clearIdleTimer();
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    try {
      if (!this.started && !this.handshake()) return;
      const { messages, rest } = splitMessages(this.buffer);
      this.buffer = Buffer.from(rest);
      for (const message of messages) {
        if (message.type === "X") {
          void this.close();
          return;
        }
        this.pending.push(this.names.track(message));
      }
    } catch (err) {
      this.abort("08P01", `protocol violation: ${err instanceof Error ? err.message : err}`);
      return;
    }
    this.schedule(() => this.pump());
  }

  /** The untyped first messages; true once the session is started. */
  private handshake(): boolean {
    for (;;) {
      const head = readUntyped(this.buffer);
      if (!head) return false;
      this.buffer = this.buffer.subarray(head.length);
      if (head.code === SSL_REQUEST || head.code === GSSENC_REQUEST) {
        this.socket.write("N");
      } else if (head.code === PROTOCOL_3) {
        this.socket.write(this.front.startupReply);
        this.started = true;
        return true;
      } else if (head.code === CANCEL_REQUEST) {
        this.socket.destroy();
        return false;
      } else {
        throw new Error(`unsupported protocol ${head.code}`);
      }
    }
  }

  private schedule(step: () => Promise<void>): void {
    this.work = this.work.then(step).catch((err) => {
      this.front.log(`connection ${this.id} failed: ${err instanceof Error ? err.message : err}`);
      this.abort("XX000", "the embedded database failed to run the statement");
    });
  }

  /** Runs the pending units, one at a time, each while holding the database. */
  private async pump(): Promise<void> {
    while (!this.closed) {
      if (this.skipping && !this.skipToSync()) return;
      const end = this.pending.findIndex(endsUnit);
      if (end < 0) {
        if (this.holding) this.armIdleTimer();
        return;
      }
      if (!this.holding) {
        const unit = this.pending.slice(0, end + 1);
        const granted = await this.front.lock.acquire(
          this,
          this.front.lockTimeoutMs,
          this.names.laneOf(unit),
          unit.some((m) => opensTransaction(sqlText(m))),
        );
        if (this.closed) {
          if (granted) this.front.lock.release(this);
          return;
        }
        if (!granted) {
          this.refuse(this.pending.splice(0, end + 1));
          continue;
        }
        this.holding = true;
        await this.front.handOver(this);
      }
      const status = await this.execute(this.pending.splice(0, end + 1));
      if (status === "I") this.letGo();
    }
  }

  /** Runs one unit; answers the client as PGlite answers; returns the final status. */
  private async execute(unit: FrontendMessage[]): Promise<Status | undefined> {
    const front = this.front;
    // Another client ran last: its unnamed statement and portal must not reach this one.
    // Closing them rides in front of this unit; their two CloseComplete are not forwarded.
    const clear = front.lastRunner !== undefined && front.lastRunner !== this;
    const parts = clear ? [closeStatement(""), closePortal("")] : [];
    for (const message of unit) parts.push(message.bytes);
    let skip = clear ? CLOSE_COMPLETE.length * 2 : 0;
    let tail: Buffer = Buffer.alloc(0);
    front.lastRunner = this;
    front.units++;
    await front.run(Buffer.concat(parts), (chunk) => {
      let data = chunk;
      if (skip > 0) {
        const n = Math.min(skip, data.length);
        data = data.subarray(n);
        skip -= n;
      }
      if (data.length === 0) return;
      tail = Buffer.concat([tail, data]).subarray(-6);
      if (!this.closed) this.socket.write(data);
    });
    const last = unit[unit.length - 1];
    this.midRun = last !== undefined && !isSyncPoint(last);
    return trailingStatus(tail);
  }

  /** Answers a unit that waited too long for the database, without running it. */
  private refuse(unit: FrontendMessage[]): void {
    this.front.refused++;
    const waited = (this.front.lockTimeoutMs / 1000).toFixed(0);
    this.front.log(`connection ${this.id}: waited ${waited} s for the database; unit refused`);
    this.socket.write(
      errorResponse(
        "ERROR",
        "55P03",
        `the embedded database is busy: another connection's transaction held it for ${waited} s`,
      ),
    );
    const last = unit[unit.length - 1];
    if (last && isSyncPoint(last)) this.socket.write(readyForQuery("I"));
    else this.skipping = true;
  }

  /** Drops messages up to the client's next Sync and answers it; false if none yet. */
  private skipToSync(): boolean {
    const at = this.pending.findIndex((m) => m.type === "S");
    if (at < 0) {
      this.pending = [];
      return false;
    }
    this.pending.splice(0, at + 1);
    this.skipping = false;
    this.socket.write(readyForQuery("I"));
    return true;
  }

  private letGo(): void {
    this.clearIdleTimer();
    this.holding = false;
    this.front.lock.release(this);
  }

  private armIdleTimer(): void {
    this.clearIdleTimer();
    this.idleTimer = setTimeout(() => {
      this.front.log(`connection ${this.id}: idle in a transaction; rolled back`);
      this.abort("25P03", "terminating connection due to idle-in-transaction timeout");
    }, this.front.idleInTransactionMs);
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** Tells the client why, then disconnects it (its transaction is rolled back). */
  private abort(code: string, text: string): void {
    if (!this.closed && this.socket.writable) this.socket.write(errorResponse("FATAL", code, text));
    void this.close();
  }

  /** Its session-level SET/RESET statements, replayed when it takes the database back. */
  get sessionSql(): readonly string[] {
    return this.names.sessionSql;
  }

  /** Disconnects: ends an open run, rolls back, closes its statements, frees the database. */
  close(): Promise<void> {
    if (this.closed) return this.work;
    this.closed = true;
    this.clearIdleTimer();
    this.pending = [];
    this.front.lock.cancel(this);
    // end() first, so that a FATAL just written (abort) still reaches the client; a peer
    // that never closes its side is cut off a second later.
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1000).unref();
    this.work = this.work
      .then(() => this.cleanUp())
      .catch((err) => {
        this.front.log(
          `connection ${this.id}: clean-up failed: ${err instanceof Error ? err.message : err}`,
        );
      });
    return this.work;
  }

  private async cleanUp(): Promise<void> {
    const front = this.front;
    try {
      if (!this.holding && this.names.statements.size === 0) return;
      if (!this.holding) {
        // Only its named statements are left: close them when the database is free.
        if (!(await front.lock.acquire(this, front.lockTimeoutMs * 10))) return;
        this.holding = true;
      }
      if (this.midRun) await front.run(sync());
      if (front.db.isInTransaction()) await front.run(simpleQuery("ROLLBACK"));
      if (this.names.statements.size > 0) {
        await front.run(Buffer.concat([...[...this.names.statements].map(closeStatement), sync()]));
      }
    } finally {
      if (this.holding) this.letGo();
      front.forget(this);
    }
  }
}
