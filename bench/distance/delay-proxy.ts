/**
 * A TCP proxy on loopback that puts distance between two local processes: every chunk is held
 * `delayMs` before it is passed on, in each direction, in order. Placed between the Worker and
 * the database side (or between a pooler and PostgreSQL) it makes each round trip cost 2·D,
 * as a Worker far from its database pays.
 *
 * It also counts round trips: an exchange starts when a client→server chunk arrives on a
 * connection whose previous chunk went server→client (or which had none yet). A connection's
 * first bytes, a query after its answer and a final Terminate each start one; a message sent
 * in several chunks, or several messages sent without waiting, start one between them. An
 * exchange is answered when the first server→client chunk after it arrives (a Terminate never
 * is): count() tells those answered inside the window apart, the ones a request waited for.
 * The TCP handshake itself is not delayed: the proxy only sees the connection once it exists.
 */
import { connect, createServer, type Socket } from "node:net";

const HOST = "127.0.0.1";

export interface ProxyCounts {
  /** Exchanges that started in the window. */
  exchanges: number;
  /** Of those, the ones answered before the window's end. */
  answered: number;
  /** Connections accepted in the window. */
  connections: number;
}

export interface DelayProxy {
  port: number;
  /** Added to every chunk, each way. Read per chunk: it can change between runs. */
  delayMs: number;
  /** performance.now() of the last chunk received or passed on, or of a connection's start or end. */
  readonly lastActivity: number;
  /** What started in [from, to) (performance.now() times). */
  count(from: number, to: number): ProxyCounts;
  close(): Promise<void>;
}

export async function startDelayProxy(targetPort: number, delayMs = 0): Promise<DelayProxy> {
  // Appended as they happen, so both stay sorted for count()'s binary search.
  const exchangeStarts: number[] = [];
  /** When each exchange was answered (same index as exchangeStarts); Infinity until then. */
  const answeredAt: number[] = [];
  const connectionStarts: number[] = [];
  const open = new Set<Socket>();
  const proxy = {
    port: 0,
    delayMs,
    lastActivity: performance.now(),
    count: (from: number, to: number): ProxyCounts => {
      const first = lowerBound(exchangeStarts, from);
      const end = lowerBound(exchangeStarts, to);
      const answered = answeredAt.slice(first, end).filter((t) => t < to).length;
      return {
        exchanges: end - first,
        answered,
        connections: lowerBound(connectionStarts, to) - lowerBound(connectionStarts, from),
      };
    },
    close: async () => {},
  };
  const touch = () => {
    proxy.lastActivity = performance.now();
  };

  // allowHalfOpen: one side's end must not cut the other direction's chunks still held.
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    connectionStarts.push(performance.now());
    touch();
    const upstream = connect({ port: targetPort, host: HOST, allowHalfOpen: true, noDelay: true });
    open.add(client).add(upstream);
    /** Index of this connection's exchange in progress, until a server→client chunk. */
    let unanswered: number | undefined;
    let lastUpstream = false;
    delayed(client, upstream, proxy, () => {
      if (!lastUpstream) {
        unanswered = exchangeStarts.push(performance.now()) - 1;
        answeredAt.push(Number.POSITIVE_INFINITY);
      }
      lastUpstream = true;
      touch();
    });
    delayed(upstream, client, proxy, () => {
      if (unanswered !== undefined) answeredAt[unanswered] = performance.now();
      unanswered = undefined;
      lastUpstream = false;
      touch();
    });
    const drop = () => {
      client.destroy();
      upstream.destroy();
      touch();
    };
    for (const socket of [client, upstream]) {
      socket.on("error", drop);
      socket.on("close", () => {
        open.delete(socket);
        touch();
      });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, resolve);
  });
  const address = server.address();
  proxy.port = typeof address === "object" && address ? address.port : 0;
  let closed = false;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      if (closed) return resolve();
      closed = true;
      for (const socket of open) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

/**
 * Passes `from`'s chunks to `to`, each `proxy.delayMs` after it arrived. One queue and one
 * timer per direction keep the order (timers of different delays need not fire in order when
 * the delay changes); with no delay and nothing held, a chunk goes through at once.
 */
function delayed(from: Socket, to: Socket, proxy: { delayMs: number }, onChunk: () => void) {
  const held: Array<{ due: number; chunk: Buffer }> = [];
  let scheduled = false;
  let ended = false;
  const schedule = (ms: number) => {
    scheduled = true;
    setTimeout(flush, Math.max(0, ms));
  };
  const flush = () => {
    scheduled = false;
    // setTimeout may fire up to a millisecond early by performance.now()'s clock.
    const now = performance.now() + 1;
    for (let next = held[0]; next && next.due <= now; next = held[0]) {
      held.shift();
      if (!to.destroyed) to.write(next.chunk);
    }
    const next = held[0];
    if (next) schedule(next.due - performance.now());
    else if (ended && !to.destroyed) to.end();
  };
  from.on("data", (chunk: Buffer) => {
    onChunk();
    if (proxy.delayMs <= 0 && held.length === 0) {
      if (!to.destroyed) to.write(chunk);
      return;
    }
    held.push({ due: performance.now() + proxy.delayMs, chunk });
    if (!scheduled) schedule(proxy.delayMs);
  });
  from.on("end", () => {
    ended = true;
    if (held.length === 0 && !to.destroyed) to.end();
  });
}

function lowerBound(times: number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] ?? 0) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
