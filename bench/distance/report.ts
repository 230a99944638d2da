/** The distance part's tables: one per layout, the notes under the last. */

import { fmt, type Table } from "../lib/report";
import type { OpSummary } from "./ops";

export interface OpResult {
  name: string;
  near: OpSummary;
  far: OpSummary;
  /** (far p50 − near p50) / (2·D). */
  implied: number;
}

export function layoutTable(
  layout: { title: string; path: string },
  ops: OpResult[],
  opts: { delayMs: number; rounds: number },
  last: boolean,
): Table {
  const d = opts.delayMs;
  const counted = (r: OpResult) =>
    r.near.exchanges === r.far.exchanges
      ? String(r.far.exchanges)
      : `${r.far.exchanges} (near ${r.near.exchanges})`;
  return {
    title: `Distance: ${layout.title}, D = ${d} ms, ${opts.rounds} requests each\n${layout.path}`,
    header: [
      "operation",
      "near p50",
      "near p95",
      "far p50",
      "far p95",
      "round trips (counted)",
      "answered",
      "implied",
      "new conns",
      "after response",
    ],
    rows: ops.map((r) => [
      r.name,
      fmt(r.near.p50),
      fmt(r.near.p95),
      fmt(r.far.p50),
      fmt(r.far.p95),
      counted(r),
      String(r.far.answered),
      fmt(r.implied),
      String(r.far.connections),
      String(r.far.after),
    ]),
    notes: last ? distanceNotes(d) : [],
  };
}

function distanceNotes(d: number): string[] {
  return [
    `Latency in ms, end to end over HTTP, one request at a time. near: the same path through the delay proxy with no delay; far: ${d} ms added to every chunk each way (a round trip costs ${2 * d} ms).`,
    "round trips (counted): median per request of the exchanges the delay proxy saw start between the request and its response (client→server data after server→client data, or a connection's first data), at the distance, summed over the request's connections (which may run at once); (near n) when the near run's median differs.",
    "answered: of those, the median answered before the response arrived (the ones the request waited for; not a Terminate, nor a statement the Worker sent as it answered).",
    `implied: (far p50 − near p50) / (2·${d}).`,
    "new conns: median connections opened through the delay proxy per request. The proxy cannot delay the TCP handshake itself: on a real network each new TCP connection costs one more round trip, and TLS one or two more.",
    "after response: median exchanges after the response (waitUntil: closing the pool, the indexer, access counts), not in the latency.",
    "(shared): the same operation by a second wallet that the first granted write on the namespace of its memories, on the first's memories (?owner=, docs/sharing.md); in each round it runs right beside the plain one, which goes first every other round.",
    "Worker: wrangler dev, lexical embedder (EMBEDDER=local) and rules provider, metering off: the database path alone. Each column: a fresh wallet with 50 memories, and a fresh grantee.",
  ];
}
