/**
 * Mem0 as a LoCoMo system: the mem0ai SDK in process (../systems/mem0.ts loads it), one user per
 * conversation, one `add` per turn, `search` with topK K. Split out of the former
 * bench/locomo/index.ts.
 */
import type { EmbedServer } from "../systems/embed-server";
import { createMem0, type loadMem0 } from "../systems/mem0";
import { K, type System, warmUpOnce } from "./types";

export async function mem0System(
  mod: Exclude<Awaited<ReturnType<typeof loadMem0>>, string>,
  embed: EmbedServer,
): Promise<System> {
  // One Mem0 for every conversation, a user each: how an application would deploy it.
  const store = await createMem0(mod, embed);
  const warmUp = warmUpOnce(async (turns, questions) => {
    for (const t of turns) await store.add("warm-up", [t.content]);
    for (const q of questions) await store.search("warm-up", q.question, K);
  });
  return {
    key: "mem0",
    label: "Mem0 (in process)",
    async prepare(conv) {
      await warmUp(conv);
      const userId = `locomo-${conv.sampleId}`;
      const diaIds = new Map<string, string[]>();
      const started = performance.now();
      for (const t of conv.turns) {
        const [id] = await store.add(userId, [t.content], { dia_id: t.diaId, session: t.session });
        if (id) diaIds.set(id, [t.diaId]);
      }
      return {
        ingestMs: performance.now() - started,
        memories: diaIds.size,
        merged: 0,
        async ask(query) {
          const t0 = performance.now();
          const results = await store.search(userId, query, K);
          const ms = performance.now() - t0;
          return { ms, ranked: results.map((r) => diaIds.get(r.id) ?? []) };
        },
      };
    },
  };
}
