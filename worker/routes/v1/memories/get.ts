import { domain } from "../../../context";
import { getMemory } from "../../../memories/list";
import { json, operation } from "../../operation";
import { ERRORS } from "../../schemas/error";
import { Memory } from "../../schemas/memory";
import { IdParam } from "../../schemas/params";

export const getMemoryOp = operation(
  {
    method: "get",
    path: "/v1/memories/{id}",
    operationId: "getMemory",
    tags: ["memories"],
    summary: "One memory",
    auth: "wallet",
    request: { params: IdParam },
    responses: { 200: json(Memory, "The memory"), 404: ERRORS[404] },
  },
  async (c) => c.json(await getMemory(domain(c), c.req.valid("param").id), 200),
);
