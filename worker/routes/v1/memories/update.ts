import { updateInput, updateMemory } from "../../../memories/update";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";
import { ERRORS } from "../../schemas/error";
import { Memory } from "../../schemas/memory";
import { IdParam } from "../../schemas/params";

export const updateMemoryOp = operation(
  {
    method: "patch",
    path: "/v1/memories/{id}",
    operationId: "updateMemory",
    shared: "write",
    tags: ["memories"],
    summary: "Change a memory's fields (new content is re-embedded; a history entry is written)",
    auth: "wallet",
    price: "embed",
    request: {
      params: IdParam,
      body: { content: { "application/json": { schema: updateInput } } },
    },
    responses: { 200: json(Memory, "The updated memory"), 404: ERRORS[404], 409: ERRORS[409] },
  },
  async (c) =>
    c.json(await updateMemory(domain(c), c.req.valid("param").id, c.req.valid("json")), 200),
);
