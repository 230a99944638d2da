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

/**
 * A batch update that embeds (any item carries `content`) is priced as a batch store: up to
 * 100 embeddings in one call, as a batch store makes. An invalid item is not embedded, but its
 * content still calls for the price: the body is what the client sent, priced before any item
 * is looked at (and a single PATCH with content costs what one embedding does).
 */
const embedsAny = (body: unknown): boolean =>
  (body as z.output<typeof batchUpdateInput>).updates.some(
    (u) => typeof u === "object" && u !== null && "content" in u && u.content !== undefined,
  );

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
    description:
      "Price: 0.005 USDC a call without new content; when any item carries `content` (it is embedded), the batch store price, 0.04 USDC (`x-price-if`). Either way one call of the free allowance. Items that would fail (404, 409, 403) are known before anything is embedded, and only the contents of the items that pass are embedded. Through a grant (`owner`), an item that sets `pinned` or `immutable` fails with 403: those are the owner's.",
    auth: "wallet",
    price: "embed",
    priceIf: {
      price: "batch_store",
      applies: embedsAny,
      when: "any item carries content (it is embedded)",
    },
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
        "Per-item outcomes (404, 409, 422, 403 inside `errors`)",
      ),
    },
  },
  async (c) => c.json(await updateMany(domain(c), c.req.valid("json").updates), 200),
);
