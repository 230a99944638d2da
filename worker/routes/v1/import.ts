import { z } from "@hono/zod-openapi";
import { storeMemories } from "../../memories/store";
import { importItem } from "../../memories/store-input";
import { domain } from "../../middleware/app-env";
import { json, operation } from "../operation";
import { ERRORS } from "../schemas/error";
import { Uuid } from "../schemas/memory";

/**
 * Client extra: re-import memories (e.g. an export's JSON). Each memory is embedded like a
 * batch store's, so it costs what the same memories cost through batch store: 0.04 USDC per
 * 100 (begun), or one free call per 100 while the allowance lasts.
 */
export const IMPORT_MAX = 1000;
const PER_CALL = 100;
const importInput = z.object({
  memories: z
    .array(importItem)
    .min(1, "at least 1 memory")
    .max(IMPORT_MAX, `at most ${IMPORT_MAX} memories`),
});

export const importOp = operation(
  {
    method: "post",
    path: "/v1/import",
    operationId: "importMemories",
    tags: ["import and export"],
    summary:
      "Import up to 1,000 memories (e.g. an export), deduplicated: priced as batch stores of 100",
    auth: "wallet",
    price: "batch_store",
    units: {
      count: (body) => Math.ceil((body as z.output<typeof importInput>).memories.length / PER_CALL),
      per: `${PER_CALL} memories`,
    },
    request: { body: { content: { "application/json": { schema: importInput } } } },
    responses: {
      201: json(
        z.object({ imported: z.number().int(), skipped: z.number().int(), ids: z.array(Uuid) }),
        "How many were new and how many merged into existing memories",
      ),
      // An item's `supersedes` names a memory this wallet does not have (docs/knowledge-updates.md).
      404: ERRORS[404],
    },
  },
  async (c) => {
    const { items } = await storeMemories(domain(c), c.req.valid("json").memories);
    const skipped = items.filter((i) => i.deduplicated).length;
    return c.json({ imported: items.length - skipped, skipped, ids: items.map((i) => i.id) }, 201);
  },
);
