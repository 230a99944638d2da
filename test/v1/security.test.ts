/**
 * One security loop over every declared operation (worker/routes, aliases included), read
 * from the OpenAPI document the Worker serves, so a new route cannot skip it:
 *   - without auth, an operation that needs a wallet answers 401;
 *   - another wallet's id in the path answers 404, and changes nothing;
 *   - a malformed id in the path answers 422;
 *   - a wrong type in each body field answers 422.
 * Every operation with a body needs a valid example body (operations.ts): the loop fails for
 * one that has none.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, type Json, newWallet, request, type Wallet } from "../helpers";
import {
  baseName,
  concrete,
  type DocOperation,
  EXAMPLE_BODIES,
  type Ids,
  type JsonSchema,
  operationsOf,
} from "./operations";

let doc: Json;
let operations: DocOperation[];
let owner: Wallet;
let ids: Ids;

function resolve(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  return doc.components.schemas[name];
}

/** Top-level properties of a body schema, through $ref and allOf (an intersection). */
function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  const s = resolve(schema);
  if (!s) return {};
  return Object.assign({}, s.properties ?? {}, ...(s.allOf ?? []).map(propertiesOf));
}

/** A value of another JSON type than the property's, or undefined when any type is allowed. */
function wrongValue(property: JsonSchema): unknown {
  const s = resolve(property) ?? {};
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length === 0) return undefined;
  if (!types.includes("string")) return "not the declared type";
  if (!types.includes("number") && !types.includes("integer")) return 12345;
  return { not: "the declared type" };
}

beforeAll(async () => {
  const res = await request("GET", "/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
  operations = operationsOf(doc);

  owner = newWallet();
  const memory = await owner.store("Ada keeps her bicycle in the garden shed", { pinned: true });
  const other = await owner.store("The quarterly report is due on Friday");
  const rel = await owner.post(`/v1/memories/${memory}/relations`, {
    target_id: other,
    relation_type: "related_to",
  });
  expect(rel.status).toBe(201);
  const job = await owner.post("/v1/memories/consolidate", { dry_run: true, async: true });
  expect(job.status).toBe(202);
  ids = { memory, other, relation: rel.body.id, job: job.body.id };
});

/** The owner's ids for a path's parameters: the job for /v1/jobs, else the memory. */
const ownerValues = (op: DocOperation) => ({
  id: op.path.startsWith("/v1/jobs/") ? ids.job : ids.memory,
  relationId: ids.relation,
});

describe("the security loop over every declared operation", () => {
  it("covers every operation, each with an example body where it takes one", () => {
    expect(operations.length).toBeGreaterThan(35);
    const missing = operations.filter((op) => op.body && !EXAMPLE_BODIES[baseName(op)]);
    expect(missing.map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  it("answers 401 without auth wherever a wallet is needed", async () => {
    const guarded = operations.filter((op) => op.auth === "wallet");
    expect(guarded.length).toBeGreaterThan(30);
    for (const [i, op] of guarded.entries()) {
      const res = await request(op.method, concrete(op, {}), {
        body: op.body ? EXAMPLE_BODIES[baseName(op)]?.(ids) : undefined,
        // Each probe from its own address: anonymous calls are rate-limited per IP.
        headers: { "cf-connecting-ip": `10.77.${Math.floor(i / 250)}.${i % 250}` },
      });
      expectError(res, 401, "UNAUTHORIZED");
    }
  });

  it("answers 404 for another wallet's id in the path, and changes nothing", async () => {
    const withIds = operations.filter((op) => op.params.length > 0 && op.auth === "wallet");
    expect(withIds.length).toBeGreaterThanOrEqual(10);
    const stranger = newWallet();
    for (const op of withIds) {
      const body = op.body ? EXAMPLE_BODIES[baseName(op)]?.(ids) : undefined;
      const res = await stranger.call(op.method, concrete(op, ownerValues(op)), body);
      expect(res.status, `${op.method} ${op.path}: ${JSON.stringify(res.body)}`).toBe(404);
    }
    const mine = await owner.get(`/v1/memories/${ids.memory}`);
    expect(mine.body).toMatchObject({
      content: "Ada keeps her bicycle in the garden shed",
      pinned: true,
    });
    const rels = await owner.get(`/v1/memories/${ids.memory}/relations`);
    expect(rels.body.relations.map((r: Json) => r.id)).toEqual([ids.relation]);
    expect((await owner.get(`/v1/memories/${ids.memory}/history`)).body.history).toEqual([]);
  });

  it("answers 404 or a per-item failure for another wallet's ids in a body", async () => {
    const stranger = newWallet();
    const pin = await stranger.post("/v1/memories/core", { memory_id: ids.other });
    expectError(pin, 404, "NOT_FOUND");
    const bulk = await stranger.del("/v1/memories", { ids: [ids.other] });
    expect(bulk.body).toEqual({ deleted: 0, errors: [ids.other] });
    const batch = await stranger.patch("/v1/memories/batch", {
      updates: [{ id: ids.other, content: "stolen" }],
    });
    expect(batch.body).toMatchObject({ updated: 0, errors: [{ id: ids.other, status: 404 }] });
    const target = await stranger.store("the stranger's memory");
    const link = await stranger.post(`/v1/memories/${target}/relations`, {
      target_id: ids.other,
      relation_type: "related_to",
    });
    expectError(link, 404, "NOT_FOUND");
    const after = await owner.get(`/v1/memories/${ids.other}`);
    expect(after.body).toMatchObject({
      content: "The quarterly report is due on Friday",
      pinned: false,
    });
  });

  it("answers 422 for a malformed id in the path", async () => {
    const w = newWallet();
    for (const op of operations.filter((o) => o.params.length > 0)) {
      for (const param of op.params) {
        const body = op.body ? EXAMPLE_BODIES[baseName(op)]?.(ids) : undefined;
        const res = await w.call(op.method, concrete(op, { [param]: "not-a-uuid" }), body);
        expectError(res, 422, "VALIDATION_ERROR");
      }
    }
  });

  it("answers 422 for a wrong type in each body field", async () => {
    let probes = 0;
    for (const op of operations.filter((o) => o.body)) {
      // A wallet per operation: extract and consolidate allow 10 calls a minute.
      const w = newWallet();
      const example = EXAMPLE_BODIES[baseName(op)]?.(ids);
      for (const [field, property] of Object.entries(propertiesOf(op.body))) {
        const wrong = wrongValue(property);
        if (wrong === undefined) continue;
        const res = await w.call(op.method, concrete(op, {}), { ...example, [field]: wrong });
        expect(res.status, `${op.method} ${op.path} ${field}=${JSON.stringify(wrong)}`).toBe(422);
        expectError(res, 422, "VALIDATION_ERROR");
        probes++;
      }
    }
    expect(probes).toBeGreaterThan(60);
    // 60+ requests in a row, each op's first one waiting for the shared embedded database,
    // which a concurrent test file may hold with HNSW indexing for a second at a time: 2-4 s
    // alone, past the default 30 s once in CI beside the tests of test/memories/ann/ on a loaded machine.
  }, 120_000);
});
