/**
 * Many wallets at once, through the public API: every answer holds only the caller's
 * memories, and nothing answers 5xx. This is the load that broke the embedded database
 * when its front interleaved clients' protocol messages (wrong rows, 500s); CI runs it on
 * the embedded default and on a PostgreSQL server.
 */
import { describe, expect, it } from "vitest";
import { type ApiResponse, newWallet, type Wallet } from "./helpers";

const WALLETS = 16;
const ROUNDS = 3;

interface Tenant {
  wallet: Wallet;
  /** A word only this wallet's memories contain. */
  marker: string;
  ids: Set<string>;
}

/** Every problem found: a 5xx, an unexpected status, or another wallet's memory. */
type Problems = string[];

function check(p: Problems, what: string, res: ApiResponse, ok: number): boolean {
  if (res.status === ok) return true;
  p.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return false;
}

/** Asserts that every memory in `list` is the tenant's own, by id and by content. */
function own(p: Problems, t: Tenant, what: string, list: Array<{ id: string; content?: string }>) {
  for (const m of list) {
    if (!t.ids.has(m.id)) p.push(`${what}: foreign id ${m.id}`);
    if (m.content !== undefined && !m.content.includes(t.marker)) {
      p.push(`${what}: foreign content "${m.content.slice(0, 60)}"`);
    }
  }
}

/** Distinct facts, so that no two of a wallet's memories deduplicate, whatever the embedder. */
const FACTS = [
  "likes hiking in the Alps every summer",
  "works night shifts as a nurse in Lisbon",
  "drives an old blue Volvo estate",
  "plays the cello in a string quartet",
  "is allergic to peanuts and shellfish",
  "deploys the billing service with Terraform",
  "reads Russian novels before sleeping",
  "keeps sourdough starter in the fridge",
  "prefers tabs over spaces in Go code",
  "volunteers at the animal shelter on Mondays",
  "collects vinyl records of 1970s jazz",
  "is learning Japanese with flashcards",
  "repaired the garden fence last weekend",
  "owns a cat called Miso",
  "moved the team standup to 10am",
  "uses a standing desk at the office",
];

async function round(t: Tenant, r: number, p: Problems): Promise<void> {
  const w = t.wallet;
  let next = r * 5;
  const text = (k: string) => `${t.marker} ${FACTS[next++ % FACTS.length]} (${k})`;
  const stored = await w.post("/v1/store", { content: text("single"), tags: [t.marker] });
  if (!check(p, "store", stored, 201)) return;
  t.ids.add(stored.body.id);
  const batch = await w.post("/v1/store/batch", {
    memories: [text("a"), text("b"), text("c")].map((content) => ({ content })),
  });
  if (!check(p, "batch", batch, 201)) return;
  for (const id of batch.body.ids) t.ids.add(id);

  const [list, got, search, recall, count, related] = await Promise.all([
    w.get("/v1/memories?limit=100"),
    w.get(`/v1/memories/${stored.body.id}`),
    w.post("/v1/search", { query: t.marker, limit: 100 }),
    w.post("/v1/recall", { query: `${t.marker} round`, limit: 20 }),
    w.get("/v1/memories/count"),
    w.post(`/v1/memories/${stored.body.id}/relations`, {
      target_id: batch.body.ids[0],
      relation_type: "related_to",
    }),
  ]);
  if (check(p, "list", list, 200)) {
    own(p, t, "list", list.body.memories);
    if (list.body.total !== t.ids.size) p.push(`list: total ${list.body.total} of ${t.ids.size}`);
  }
  if (check(p, "get", got, 200)) own(p, t, "get", [got.body]);
  if (check(p, "search", search, 200)) own(p, t, "search", search.body.memories);
  if (check(p, "recall", recall, 200)) own(p, t, "recall", recall.body.memories);
  if (check(p, "count", count, 200) && count.body.count !== t.ids.size) {
    p.push(`count: ${count.body.count} of ${t.ids.size}`);
  }
  if (check(p, "relate", related, 201)) {
    const relations = await w.get(`/v1/memories/${stored.body.id}/relations`);
    if (check(p, "relations", relations, 200)) {
      own(
        p,
        t,
        "relations",
        relations.body.relations.map(
          (rel: { memory: { id: string; content: string } }) => rel.memory,
        ),
      );
    }
  }
  const patched = await w.patch(`/v1/memories/${stored.body.id}`, { content: text("patched") });
  if (check(p, "patch", patched, 200)) own(p, t, "patch", [patched.body]);
}

describe("many wallets at once", () => {
  it(`${WALLETS} wallets × ${ROUNDS} rounds of store, batch, list, get, search, recall, relate and patch see only their own memories`, async () => {
    const tenants: Tenant[] = Array.from({ length: WALLETS }, (_, i) => ({
      wallet: newWallet(),
      marker: `tenant${i}x${crypto.randomUUID().slice(0, 8)}`,
      ids: new Set<string>(),
    }));
    const problems: Problems = [];
    await Promise.all(
      tenants.map(async (t) => {
        for (let r = 0; r < ROUNDS; r++) await round(t, r, problems);
      }),
    );
    // And each wallet asks for its neighbour's memory: 404, never the memory.
    await Promise.all(
      tenants.map(async (t, i) => {
        const neighbour = tenants[(i + 1) % tenants.length];
        const [id] = neighbour ? [...neighbour.ids] : [];
        const res = await t.wallet.get(`/v1/memories/${id}`);
        check(problems, "other wallet's memory", res, 404);
      }),
    );
    expect(problems).toEqual([]);
    for (const t of tenants) expect(t.ids.size).toBe(ROUNDS * 4);
  }, 240_000);
});
