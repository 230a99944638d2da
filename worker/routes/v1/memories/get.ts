import { getMemory } from "../../../memories/list";
import { getByIdOperation, json } from "../../operation";
import { Memory } from "../../schemas/memory";

export const getMemoryOp = getByIdOperation(
  {
    path: "/v1/memories/{id}",
    operationId: "getMemory",
    shared: "read",
    tags: ["memories"],
    summary: "One memory",
  },
  json(Memory, "The memory"),
  getMemory,
);
