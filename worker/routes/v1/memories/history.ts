import { z } from "@hono/zod-openapi";
import { domain } from "../../../context";
import { memoryHistoryOf } from "../../../memories/history";
import { json, operation } from "../../operation";
import { ERRORS } from "../../schemas/error";
import { Metadata, Timestamp, Uuid } from "../../schemas/memory";
import { IdParam } from "../../schemas/params";

export const historyOp = operation(
  {
    method: "get",
    path: "/v1/memories/{id}/history",
    operationId: "memoryHistory",
    tags: ["memories"],
    summary: "The memory's change log (one entry per PATCH), oldest first",
    auth: "wallet",
    request: { params: IdParam },
    responses: {
      200: json(
        z.object({
          history: z.array(
            z.object({ id: Uuid, memory_id: Uuid, changes: Metadata, created_at: Timestamp }),
          ),
        }),
        "The entries",
      ),
      404: ERRORS[404],
    },
  },
  async (c) => c.json({ history: await memoryHistoryOf(domain(c), c.req.valid("param").id) }, 200),
);
