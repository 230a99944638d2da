import type { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, domain } from "../context";
import { valid } from "../lib/validate";
import { LIMITS } from "../memories/fields";
import { storeInput, storeMemories } from "../memories/store";

const batchInput = z.object({
  memories: z
    .array(storeInput)
    .min(1, "at least 1 memory")
    .max(LIMITS.batch, `at most ${LIMITS.batch} memories`),
});

/** Client extra: re-import memories (e.g. an export's JSON) without paying per item. */
export const IMPORT_MAX = 1000;
const importInput = z.object({
  memories: z
    .array(storeInput)
    .min(1, "at least 1 memory")
    .max(IMPORT_MAX, `at most ${IMPORT_MAX} memories`),
});

export function storeRoutes(app: Hono<AppEnv>) {
  app.post("/v1/store", valid("json", storeInput), async (c) => {
    const { items, tokensUsed, memories } = await storeMemories(domain(c), [c.req.valid("json")], {
      withMemories: true,
    });
    const [item] = items;
    return c.json(
      {
        id: item?.id,
        stored: true,
        deduplicated: item?.deduplicated ?? false,
        tokens_used: tokensUsed,
        // Client extra (the MCP server shows `memory`): the memory as stored or merged.
        memory: memories[0],
      },
      201,
    );
  });

  app.post("/v1/store/batch", valid("json", batchInput), async (c) => {
    const { items, tokensUsed, memories } = await storeMemories(
      domain(c),
      c.req.valid("json").memories,
      { withMemories: true },
    );
    return c.json(
      {
        ids: items.map((i) => i.id),
        stored: true,
        count: items.length,
        deduplicated_count: items.filter((i) => i.deduplicated).length,
        tokens_used: tokensUsed,
        // Client extras (the MCP server reads both): each item's memory, in item order, and
        // the items that failed, always none: the batch is stored all or nothing.
        memories,
        failed: [],
      },
      201,
    );
  });

  app.post("/v1/import", valid("json", importInput), async (c) => {
    const { items } = await storeMemories(domain(c), c.req.valid("json").memories);
    const skipped = items.filter((i) => i.deduplicated).length;
    return c.json({ imported: items.length - skipped, skipped, ids: items.map((i) => i.id) }, 201);
  });
}
