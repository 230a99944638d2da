/**
 * No free path to paid work: every operation of /openapi.json (aliases included) is called
 * with a valid example, by a wallet holding memories, through a Worker whose embedder and
 * language model are the fake OpenAI server under a model name of the operation's own. An
 * operation that made an embedding or language-model call must declare a price (x-price-usd).
 *
 * /mcp lists its tools here; a tool call is its operation's own request, charged there
 * (test/meter/mcp-batch.test.ts).
 */

import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type Json, newWallet, request, type Wallet } from "../helpers";
import { callsOf, countedProviders } from "../providers";
import { workerWith } from "../worker-with";
import {
  baseName,
  concrete,
  type DocOperation,
  EXAMPLE_BODIES,
  type Ids,
  operationsOf,
} from "./operations";

/** The costliest variant of an example, where an operation has one. */
const HEAVIEST: Record<string, (ids: Ids) => Json> = {
  consolidateMemories: () => ({ mode: "llm", min_similarity: 0.5 }),
  buildContext: () => ({ query: "bicycle", summarize: true }),
  ingest: () => ({ text: "I live in Lisbon. My bicycle is blue.", auto_relate: true }),
};

let operations: DocOperation[];

beforeAll(async () => {
  const res = await request("GET", "/openapi.json");
  expect(res.status).toBe(200);
  operations = operationsOf(res.body);
});

/** A wallet on `worker` holding two similar memories, a relation between them, and a job. */
async function seededOwner(
  worker: ReturnType<typeof workerWith>,
): Promise<{ w: Wallet; ids: Ids }> {
  const w = newWallet(worker);
  const memory = await w.store("Ada keeps her bicycle in the garden shed");
  const other = await w.store("Ada keeps her bike in the shed of the garden");
  const rel = await w.post(`/v1/memories/${memory}/relations`, {
    target_id: other,
    relation_type: "related_to",
  });
  const job = await w.post("/v1/memories/consolidate", { dry_run: true, async: true });
  return { w, ids: { memory, other, relation: rel.body.id, job: job.body.id } };
}

/** The embedding and language-model calls one operation made, with its example. */
async function callsMadeBy(op: DocOperation): Promise<number> {
  const model = `walk:${op.operationId}:${crypto.randomUUID()}`;
  const worker = workerWith({ ...env, ...countedProviders(model) });
  const { w, ids } = await seededOwner(worker);
  const before = await callsOf(model);
  const query = op.requiredQuery.map((name) => `${name}=bicycle`).join("&");
  const path = concrete(op, {
    id: op.path.startsWith("/v1/jobs/") ? ids.job : ids.memory,
    relationId: ids.relation,
  });
  const example = HEAVIEST[baseName(op)] ?? EXAMPLE_BODIES[baseName(op)];
  const res = await w.call(
    op.method,
    query ? `${path}?${query}` : path,
    op.body ? example?.(ids) : undefined,
    op.path === "/mcp" ? { accept: "application/json, text/event-stream" } : {},
  );
  expect(res.status, `${op.method} ${op.path}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
  const after = await callsOf(model);
  return after.embeddings - before.embeddings + after.chat - before.chat;
}

describe("no free path to paid work", () => {
  it("every operation that embeds or calls a language model declares a price", async () => {
    const unpriced: string[] = [];
    const calling: string[] = [];
    for (const op of operations) {
      const calls = await callsMadeBy(op);
      if (calls > 0) calling.push(baseName(op));
      if (calls > 0 && !op.price) unpriced.push(`${op.method} ${op.path} (${calls} calls)`);
    }
    expect(unpriced).toEqual([]);
    // The walk sees paid work where there is some: it can fail.
    for (const paid of ["storeMemory", "recall", "extractMemories", "ingest", "importMemories"]) {
      expect(calling).toContain(paid);
    }
  }, 180_000);
});
