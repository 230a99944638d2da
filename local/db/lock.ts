/**
 * The embedded database's one session, held by one client at a time (front.ts).
 *
 * Waiting units are in two lanes:
 * - requests: what the service does while a caller waits;
 * - background: work marked as such in its SQL (worker/db/background.ts), today the HNSW
 *   indexer, which runs after a response.
 * When the database frees, the lanes take turns by how long each has held it lately (its busy
 * time, fading with a time constant of FADE_MS), background time counting 1/BACKGROUND_WEIGHT:
 * background work gets two thirds of the database while requests keep coming. The indexer
 * needs about that to keep up with one wallet's batch stores in WebAssembly (2-9 ms a row):
 * storing 10,000 memories in batches of 100, it ended 1,290 rows behind, and 4,000 memories
 * (every row indexed only past 2,000) 1,950 behind; with half, 2,650.
 *
 * Within the request lane a short request goes first: a statement outside a transaction, from
 * a connection that has held the database for less than LIGHT_MS in all (a recall or a list
 * in a small wallet), unless another request has waited AGED_MS (a stream of short requests
 * never holds a write back for long). A short request also takes the turn after any
 * background unit, so background work never keeps it waiting for more than one unit. Not a
 * BEGIN: a transaction keeps the database until it ends (a batch store's, 0.05-1.5 s in
 * WebAssembly), and the service opens a connection per request, so every write would count
 * as short.
 * Otherwise, arrival order. Measured (docs/benchmarks.md): with one arrival-order queue, a
 * wallet storing past 2,000 memories held up another wallet's recalls by up to 10 s.
 */
export type Lane = "request" | "background";

interface Waiter<T> {
  conn: T;
  lane: Lane;
  /** The unit opens a transaction (BEGIN): the client keeps the database until it ends. */
  transaction: boolean;
  /** When it began to wait (the lock's clock). */
  since: number;
  resolve: (granted: boolean) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** How fast a lane's past busy time stops counting against it. */
const FADE_MS = 1000;
/** How many times the requests' busy time background work may take when both wait. */
const BACKGROUND_WEIGHT = 2;
/** A connection that has held the database for less than this in all is served first… */
const LIGHT_MS = 50;
/** …unless a request has waited this long. */
const AGED_MS = 500;

export class DatabaseLock<T> {
  owner: T | undefined;
  private ownerLane: Lane = "request";
  private grantedAt = 0;
  private readonly waiters: Waiter<T>[] = [];
  /** Each lane's busy time, fading (FADE_MS), as of `fadedAt`. */
  private readonly busy: Record<Lane, number> = { request: 0, background: 0 };
  private fadedAt: number;
  /** How long each connection has held the database, in all. */
  private readonly held = new Map<T, number>();
  private dispatching = false;

  /** `now`: the clock, in milliseconds (tests pass their own). */
  constructor(private readonly now: () => number = () => performance.now()) {
    this.fadedAt = now();
  }

  get waiting(): number {
    return this.waiters.length;
  }

  acquire(
    conn: T,
    timeoutMs: number,
    lane: Lane = "request",
    transaction = false,
  ): Promise<boolean> {
    if (!this.owner && this.waiters.length === 0) {
      this.grant(conn, lane);
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter<T> = {
        conn,
        lane,
        transaction,
        since: this.now(),
        resolve,
        timer: setTimeout(() => this.drop(waiter), timeoutMs),
      };
      this.waiters.push(waiter);
      if (!this.owner) this.dispatchSoon();
    });
  }

  release(conn: T): void {
    if (this.owner !== conn) return;
    const ms = this.now() - this.grantedAt;
    this.charge(this.ownerLane, ms);
    this.held.set(conn, (this.held.get(conn) ?? 0) + ms);
    this.owner = undefined;
    if (this.waiters.length > 0) this.dispatchSoon();
  }

  /** Withdraws a connection's place in the queue (it timed out or went away). */
  cancel(conn: T): void {
    for (const waiter of this.waiters.filter((w) => w.conn === conn)) this.drop(waiter);
  }

  /** Forgets a connection that has gone (after its last release). */
  forget(conn: T): void {
    this.cancel(conn);
    this.held.delete(conn);
  }

  /**
   * Chooses the next holder on the event loop's next turn, not at once. PGlite runs in this
   * thread, so a unit granted at once would start before the sockets are read again: queued
   * units then ran back to back while a short request's next statement sat unread (one
   * recall waited 0.3 s behind five indexer statements that way).
   */
  private dispatchSoon(): void {
    if (this.dispatching) return;
    this.dispatching = true;
    setImmediate(() => {
      this.dispatching = false;
      if (this.owner) return;
      const next = this.next();
      if (!next) return;
      this.waiters.splice(this.waiters.indexOf(next), 1);
      clearTimeout(next.timer);
      this.grant(next.conn, next.lane);
      next.resolve(true);
    });
  }

  private grant(conn: T, lane: Lane): void {
    this.owner = conn;
    this.ownerLane = lane;
    this.grantedAt = this.now();
  }

  /** Who goes next (see the module comment); `ownerLane` is still the last holder's. */
  private next(): Waiter<T> | undefined {
    const now = this.now();
    const requests = this.waiters.filter((w) => w.lane === "request");
    const light = requests.find((w) => !w.transaction && (this.held.get(w.conn) ?? 0) < LIGHT_MS);
    const background = this.waiters.find((w) => w.lane === "background");
    if (light && background && this.ownerLane === "background") return light;
    const aged = requests.find((w) => now - w.since >= AGED_MS);
    const request = aged ?? light ?? requests[0];
    if (!request || !background) return request ?? background;
    this.charge("request", 0); // fades both lanes' busy time to now
    return this.busy.background < BACKGROUND_WEIGHT * this.busy.request ? background : request;
  }

  private charge(lane: Lane, ms: number): void {
    const now = this.now();
    const kept = Math.exp(-(now - this.fadedAt) / FADE_MS);
    this.busy.request *= kept;
    this.busy.background *= kept;
    this.busy[lane] += ms;
    this.fadedAt = now;
  }

  private drop(waiter: Waiter<T>): void {
    const at = this.waiters.indexOf(waiter);
    if (at < 0) return;
    this.waiters.splice(at, 1);
    clearTimeout(waiter.timer);
    waiter.resolve(false);
  }
}
