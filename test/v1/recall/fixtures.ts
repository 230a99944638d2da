/** What the recall tests share: the call itself and the score formula. */
import { expectStatus, type Json, type Wallet } from "../../helpers";

export async function recall(w: Wallet, body: Record<string, unknown>): Promise<Json> {
  return expectStatus(await w.post("/v1/recall", body), 200);
}

/** The score the spec's formula gives for the signals a memory was returned with. */
export function recomputed(m: Json): number {
  const s = m._signals;
  const hybrid = 0.55 * s.vector + 0.25 * s.keyword + 0.2 * s.recency;
  return hybrid * s.context_importance * Math.min(1 + 0.1 * m.access_count, 2) * s.type_decay;
}
