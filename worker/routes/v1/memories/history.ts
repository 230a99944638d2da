import { z } from "@hono/zod-openapi";
import { memoryHistoryOf } from "../../../memories/history";
import { getByIdOperation, json } from "../../operation";
import { CreatedBy, Metadata, Timestamp, Uuid } from "../../schemas/memory";

export const historyOp = getByIdOperation(
  {
    path: "/v1/memories/{id}/history",
    operationId: "memoryHistory",
    shared: "read",
    tags: ["memories"],
    summary: "The memory's change log (one entry per PATCH), oldest first",
  },
  json(
    z.object({
      history: z.array(
        z.object({
          id: Uuid,
          memory_id: Uuid,
          changes: Metadata,
          created_at: Timestamp,
          created_by: CreatedBy,
        }),
      ),
    }),
    "The entries",
  ),
  async (ctx, id) => ({ history: await memoryHistoryOf(ctx, id) }),
);
