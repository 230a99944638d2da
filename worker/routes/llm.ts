import type { Hono } from "hono";
import { type AppEnv, domain } from "../context";
import { extractInput, extractMemories } from "../ingest/extract";
import { ingest, ingestInput } from "../ingest/ingest";
import { acceptingAsync } from "../jobs/submit";
import { valid } from "../lib/validate";
import { acceptJob } from "./jobs";

/**
 * Language-model endpoints: extract facts from a conversation, ingest a conversation or text.
 * With `async: true` either answers 202 with a job (GET /v1/jobs/:id) instead of the result.
 */
export function llmRoutes(app: Hono<AppEnv>) {
  app.post("/v1/memories/extract", valid("json", acceptingAsync(extractInput)), async (c) => {
    const { async: background, ...input } = c.req.valid("json");
    if (background) return acceptJob(c, "extract", input);
    return c.json(await extractMemories(domain(c), input), 201);
  });

  app.post("/v1/ingest", valid("json", acceptingAsync(ingestInput)), async (c) => {
    const { async: background, ...input } = c.req.valid("json");
    if (background) return acceptJob(c, "ingest", input);
    return c.json(await ingest(domain(c), input), 201);
  });
}
