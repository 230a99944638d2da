import { deleteMemory } from "../../../memories/delete";
import { actOnIdOperation } from "../../operation";

export const deleteMemoryOp = actOnIdOperation(
  {
    method: "delete",
    path: "/v1/memories/{id}",
    operationId: "deleteMemory",
    shared: "write",
    tags: ["memories"],
    summary: "Soft-delete one memory",
  },
  { done: "deleted", description: "Deleted", conflict: true },
  deleteMemory,
);
