/**
 * The embedded database's one session, held by one client at a time (front.ts); the others
 * queue in arrival order, each with a timeout after which it gives up its place.
 */
interface Waiter<T> {
  conn: T;
  resolve: (granted: boolean) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** The database, held by one client at a time; the others queue in arrival order. */
export class DatabaseLock<T> {
  owner: T | undefined;
  private readonly waiters: Waiter<T>[] = [];

  get waiting(): number {
    return this.waiters.length;
  }

  acquire(conn: T, timeoutMs: number): Promise<boolean> {
    if (!this.owner) {
      this.owner = conn;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter<T> = {
        conn,
        resolve,
        timer: setTimeout(() => this.drop(waiter), timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  release(conn: T): void {
    if (this.owner !== conn) return;
    const next = this.waiters.shift();
    this.owner = next?.conn;
    if (next) {
      clearTimeout(next.timer);
      next.resolve(true);
    }
  }

  /** Withdraws a connection's place in the queue (it timed out or went away). */
  cancel(conn: T): void {
    for (const waiter of this.waiters.filter((w) => w.conn === conn)) this.drop(waiter);
  }

  private drop(waiter: Waiter<T>): void {
    const at = this.waiters.indexOf(waiter);
    if (at < 0) return;
    this.waiters.splice(at, 1);
    clearTimeout(waiter.timer);
    waiter.resolve(false);
  }
}
