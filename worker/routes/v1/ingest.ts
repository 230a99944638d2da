import { domain } from "../../context";
import { ingest, ingestInput } from "../../ingest/ingest";
import { acceptingAsync } from "../../jobs/submit";
import { json, operation } from "../operation";
import { IngestResult } from "../schemas/facts";
import { ACCEPTED } from "../schemas/job";
import { acceptJob } from "./jobs/accept";

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
  async (c) => {
    const { async: background, ...input } = c.req.valid("json");
    if (background) return acceptJob(c, "ingest", input);
    return c.json(await ingest(domain(c), input), 201);
  },
);
