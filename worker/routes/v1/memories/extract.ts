import { extractInput, extractMemories } from "../../../ingest/extract";
import { acceptingAsync } from "../../../jobs/submit";
import { json, operation } from "../../operation";
import { ExtractResult } from "../../schemas/facts";
import { ACCEPTED } from "../../schemas/job";
import { runOrQueue } from "../jobs/accept";

export const extractOp = operation(
  {
    method: "post",
    path: "/v1/memories/extract",
    operationId: "extractMemories",
    tags: ["language model"],
    summary: "Extract facts from a conversation and store each (deduplicated)",
    auth: "wallet",
    price: "language_model",
    bucket: "llm",
    request: {
      body: { content: { "application/json": { schema: acceptingAsync(extractInput) } } },
    },
    responses: { 201: json(ExtractResult, "The facts stored"), 202: ACCEPTED },
  },
  (c) => runOrQueue(c, "extract", c.req.valid("json"), extractMemories, 201),
);
