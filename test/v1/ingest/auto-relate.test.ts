/**
 * POST /v1/ingest with auto_relate: `related_to` relations from each new memory to the
 * wallet's similar ones (local embedder), never among the ingest's own memories nor across
 * wallets.
 */
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../worker/embed/local";
import { cosine } from "../../../worker/embed/vector";
import { newWallet } from "../../helpers";
import { ingest } from "./fixtures";

const embedder = new LocalEmbedder();

async function similarity(a: string, b: string): Promise<number> {
  const { vectors } = await embedder.embed([a, b]);
  return cosine(vectors[0] ?? [], vectors[1] ?? []);
}

describe("POST /v1/ingest", () => {
  it("auto_relate links each new memory to at most 3 existing ones with similarity ≥ 0.75", async () => {
    const w = newWallet();
    const fact = "Our staging cluster runs Kubernetes 1.29 on three nodes";
    const existing = [
      "The staging cluster runs Kubernetes 1.29 on three nodes in Frankfurt",
      "Our production cluster runs Kubernetes 1.29 on three nodes",
      "Our staging cluster runs Kubernetes on three large nodes",
      "Our staging cluster runs Kubernetes 1.30 on five nodes",
    ];
    const unrelated = "The office coffee machine is descaled on Fridays";
    // The local embedder's similarities, checked so the test cannot pass by accident.
    const sims = await Promise.all(existing.map((e) => similarity(fact, e)));
    for (const s of sims) {
      expect(s).toBeGreaterThanOrEqual(0.75);
      expect(s).toBeLessThan(0.95); // the fact is not merged into one of them
    }
    expect([...sims].sort((a, b) => b - a)).toEqual(sims); // listed most similar first
    expect(await similarity(fact, unrelated)).toBeLessThan(0.75);

    const ids = [];
    for (const content of existing) ids.push(await w.store(content));
    const unrelatedId = await w.store(unrelated);
    const other = await w.store(existing[0] as string, { namespace: "elsewhere" });

    const body = await ingest(w, {
      text: `${fact}. My favourite editor is Helix.`,
      auto_relate: true,
    });
    expect(body.facts_stored).toBe(2);
    expect(body.relations_created).toBe(3);
    const [newId, helixId] = body.memory_ids as string[];

    const rels = await w.relationsOf(newId as string);
    expect(rels).toHaveLength(3);
    for (const r of rels) {
      expect(r).toMatchObject({
        source_id: newId,
        relation_type: "related_to",
        direction: "outgoing",
      });
    }
    expect(rels.map((r) => r.target_id).sort()).toEqual(ids.slice(0, 3).sort());
    expect(await w.relationsOf(helixId as string)).toEqual([]);
    expect(await w.relationsOf(unrelatedId)).toEqual([]);
    expect(await w.relationsOf(other)).toEqual([]);
    const incoming = await w.relationsOf(ids[0] as string);
    expect(incoming).toHaveLength(1);
    expect(incoming[0]).toMatchObject({ source_id: newId, direction: "incoming" });
  });

  it("auto_relate links a distinct fact ≥ 0.95 similar to an existing memory (no upper bound)", async () => {
    const w = newWallet();
    const frame =
      "Our staging cluster in Frankfurt runs Kubernetes with three worker nodes, a shared " +
      "Postgres database, a Redis cache, nightly backups and a monitoring stack, upgraded in";
    const existing = `${frame} 2023`;
    const fact = `${frame} 2024`;
    // Above the deduplication threshold, yet a distinct fact: the texts differ in a number.
    expect(await similarity(existing, fact)).toBeGreaterThanOrEqual(0.95);
    const existingId = await w.store(existing);

    // Detection off: the store's rules take the 2024 text for a new value of the same thing
    // (same-attribute:tools), a `supersedes` relation beside the one tested here.
    const body = await ingest(w, { text: `${fact}.`, auto_relate: true, detect_updates: false });
    expect(body).toMatchObject({ facts_stored: 1, facts_deduplicated: 0, relations_created: 1 });
    const [newId] = body.memory_ids as string[];
    expect(newId).not.toBe(existingId);
    expect((await w.get(`/v1/memories/${newId}`)).body.content).toBe(fact);
    const rels = await w.relationsOf(newId as string);
    expect(rels).toHaveLength(1);
    expect(rels[0]).toMatchObject({
      source_id: newId,
      target_id: existingId,
      relation_type: "related_to",
      metadata: { auto_related: true },
    });
    expect(rels[0]?.metadata.similarity).toBeGreaterThanOrEqual(0.95);
  });

  it("auto_relate does not link memories created by the same ingest, nor across wallets", async () => {
    const a = newWallet();
    const b = newWallet();
    const first = "Our staging cluster runs Kubernetes 1.29 on three nodes";
    const second = "Our production cluster runs Kubernetes 1.29 on three nodes";
    expect(await similarity(first, second)).toBeGreaterThanOrEqual(0.75);
    await a.store(second);
    const body = await ingest(b, { text: `${first}. ${second}.`, auto_relate: true });
    expect(body.facts_stored).toBe(2);
    expect(body.relations_created).toBe(0);
    for (const id of body.memory_ids) expect(await b.relationsOf(id)).toEqual([]);
  });
});
