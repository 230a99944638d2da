import { z } from "@hono/zod-openapi";
import { memoryPage, ShortMemory } from "./memory";

/** Full-text search's answer (POST /v1/search and GET /v1/memories/search). */
export const SearchResult = memoryPage(ShortMemory, { query: z.string() });
