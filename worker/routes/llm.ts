import type { Hono } from "hono";
import { type AppEnv, domain } from "../context";
import { extractInput, extractMemories } from "../ingest/extract";
import { ingest, ingestInput } from "../ingest/ingest";
import { valid } from "../lib/validate";

/** Language-model endpoints: extract facts from a conversation, ingest a conversation or text. */
export function llmRoutes(app: Hono<AppEnv>) {
  app.post("/v1/memories/extract", valid("json", extractInput), async (c) =>
    c.json(await extractMemories(domain(c), c.req.valid("json")), 201),
  );

  app.post("/v1/ingest", valid("json", ingestInput), async (c) =>
    c.json(await ingest(domain(c), c.req.valid("json")), 201),
  );
}
