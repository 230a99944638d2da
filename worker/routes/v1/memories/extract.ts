import { extractMemories } from "../../../ingest/extract";
import { json } from "../../operation";
import { ExtractResult } from "../../schemas/facts";
import { queueableOperation } from "../jobs/accept";

export const extractOp = queueableOperation(
  {
    path: "/v1/memories/extract",
    operationId: "extractMemories",
    tags: ["language model"],
    summary: "Extract facts from a conversation and store each (deduplicated)",
    price: "language_model",
    bucket: "llm",
  },
  "extract",
  extractMemories,
  { status: 201, body: json(ExtractResult, "The facts stored") },
);
