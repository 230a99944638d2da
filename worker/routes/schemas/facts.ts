import { z } from "@hono/zod-openapi";
import { Uuid } from "./memory";

/** Extract's answer; ingest adds `relations_created`. */
export const ExtractResult = z.object({
  memory_ids: z.array(Uuid),
  facts_extracted: z.number().int(),
  facts_stored: z.number().int(),
  facts_deduplicated: z.number().int(),
  tokens_used: z.number().int(),
});

export const IngestResult = ExtractResult.extend({
  relations_created: z.number().int(),
  /** = facts_stored, under the name the public clients read. */
  memories_created: z.number().int(),
});
