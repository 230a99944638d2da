import { z } from "@hono/zod-openapi";
import { LIMITS } from "../../../memories/fields";
import { batchUpdateItem, updateMany } from "../../../memories/update";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";
import { Memory } from "../../schemas/memory";

/**
 * Items are declared with their real schema (BatchUpdateItem) but validated one by one by
 * updateMany, so that a bad item fails alone, in `errors`, and the rest of the batch runs.
 */
export const BatchUpdateItem = batchUpdateItem.openapi("BatchUpdateItem");
const batchUpdateInput = z.object({
  updates: z
    .array(z.unknown())
    .min(1, "at least 1 update")
    .max(LIMITS.batch, `at most ${LIMITS.batch} updates`)
    .openapi({ items: { $ref: "#/components/schemas/BatchUpdateItem" } }),
});

/** An item's `id` as sent: a 422 item's may be anything but a UUID, or missing (null). */
const ItemId = z.string().nullable();
const ItemError = z.object({ id: ItemId, status: z.number().int(), message: z.string() });

export const batchUpdateOp = operation(
  {
    method: "patch",
    path: "/v1/memories/batch",
    operationId: "batchUpdateMemories",
    shared: "write",
    tags: ["memories"],
    summary: "Update up to 100 memories; each item succeeds or fails alone",
    auth: "wallet",
    price: "embed",
    aliases: [{ method: "post", path: "/v1/memories/batch-update" }],
    request: { body: { content: { "application/json": { schema: batchUpdateInput } } } },
    responses: {
      200: json(
        z.object({
          updated: z.number().int(),
          errors: z.array(ItemError),
          memories: z.array(Memory),
          results: z.array(
            z.object({
              id: ItemId,
              updated: z.boolean(),
              status: z.number().int().optional(),
              error: z.string().optional(),
            }),
          ),
          failed: z.number().int(),
          tokens_used: z.number().int(),
        }),
        "Per-item outcomes (404, 409, 422 inside `errors`)",
      ),
    },
  },
  async (c) => c.json(await updateMany(domain(c), c.req.valid("json").updates), 200),
);
