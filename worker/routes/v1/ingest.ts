import { ingest, ingestInput } from "../../ingest/ingest";
import { acceptingAsync } from "../../jobs/submit";
import { json, operation } from "../operation";
import { IngestResult } from "../schemas/facts";
import { ACCEPTED } from "../schemas/job";
import { runOrQueue } from "./jobs/accept";

export const ingestOp = operation(
  {
    method: "post",
    path: "/v1/ingest",
    operationId: "ingest",
    tags: ["language model"],
    summary: "Ingest a conversation or a text: extract, deduplicate, optionally relate",
    auth: "wallet",
    price: "language_model",
    request: {
      body: { content: { "application/json": { schema: acceptingAsync(ingestInput) } } },
    },
    responses: { 201: json(IngestResult, "The facts stored"), 202: ACCEPTED },
  },
  (c) => runOrQueue(c, "ingest", c.req.valid("json"), ingest, 201),
);
