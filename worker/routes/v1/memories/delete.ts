import { z } from "@hono/zod-openapi";
import { deleteMemory } from "../../../memories/delete";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";
import { ERRORS } from "../../schemas/error";
import { Uuid } from "../../schemas/memory";
import { IdParam } from "../../schemas/params";

export const deleteMemoryOp = operation(
  {
    method: "delete",
    path: "/v1/memories/{id}",
    operationId: "deleteMemory",
    tags: ["memories"],
    summary: "Soft-delete one memory",
    auth: "wallet",
    request: { params: IdParam },
    responses: {
      200: json(z.object({ deleted: z.literal(true), id: Uuid }), "Deleted"),
      404: ERRORS[404],
      409: ERRORS[409],
    },
  },
  async (c) => {
    const { id } = c.req.valid("param");
    await deleteMemory(domain(c), id);
    return c.json({ deleted: true as const, id }, 200);
  },
);
