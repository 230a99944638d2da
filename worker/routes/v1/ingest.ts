import { ingest } from "../../ingest/ingest";
import { json } from "../operation";
import { IngestResult } from "../schemas/facts";
import { queueableOperation } from "./jobs/accept";

export const ingestOp = queueableOperation(
  {
    path: "/v1/ingest",
    operationId: "ingest",
    tags: ["language model"],
    summary: "Ingest a conversation or a text: extract, deduplicate, optionally relate",
    price: "language_model",
  },
  "ingest",
  ingest,
  { status: 201, body: json(IngestResult, "The facts stored") },
);
