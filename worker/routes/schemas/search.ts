import { z } from "@hono/zod-openapi";
import { ShortMemory } from "./memory";

/** Full-text search's answer (POST /v1/search and GET /v1/memories/search). */
export const SearchResult = z.object({
  memories: z.array(ShortMemory),
  total: z.number().int(),
  query: z.string(),
});
