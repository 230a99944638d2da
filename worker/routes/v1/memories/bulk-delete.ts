import { z } from "@hono/zod-openapi";
import { deleteMany } from "../../../memories/delete";
import { LIMITS, uuid } from "../../../memories/fields";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";
import { Uuid } from "../../schemas/memory";

const idsInput = z.object({
  ids: z.array(uuid).min(1, "at least 1 id").max(LIMITS.batch, `at most ${LIMITS.batch} ids`),
});
const body = { content: { "application/json": { schema: idsInput } } };

export const bulkDeleteOp = operation(
  {
    method: "delete",
    path: "/v1/memories",
    operationId: "bulkDeleteMemories",
    tags: ["memories"],
    summary: "Soft-delete up to 100 memories",
    auth: "wallet",
    aliases: [{ method: "post", path: "/v1/memories/bulk-delete" }],
    request: { body },
    responses: {
      200: json(
        z.object({ deleted: z.number().int(), errors: z.array(Uuid) }),
        "How many were deleted, and the ids that were not (missing, immutable, another wallet's)",
      ),
    },
  },
  async (c) => {
    const outcomes = await deleteMany(domain(c), c.req.valid("json").ids);
    return c.json(
      {
        deleted: outcomes.filter((o) => o.deleted).length,
        errors: outcomes.filter((o) => !o.deleted).map((o) => o.id),
      },
      200,
    );
  },
);

/** The Python SDK's form: one outcome per id. */
export const batchDeleteOp = operation(
  {
    method: "post",
    path: "/v1/memories/batch-delete",
    operationId: "batchDeleteMemories",
    tags: ["memories"],
    summary: "Soft-delete up to 100 memories, one outcome per id",
    auth: "wallet",
    request: { body },
    responses: {
      200: json(
        z.object({
          results: z.array(
            z.object({ id: Uuid, deleted: z.boolean(), error: z.string().nullable() }),
          ),
        }),
        "Each id's outcome",
      ),
    },
  },
  async (c) => c.json({ results: await deleteMany(domain(c), c.req.valid("json").ids) }, 200),
);
