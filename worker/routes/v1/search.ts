import { searchInput, searchMemories } from "../../memories/search";
import { domain } from "../../middleware/app-env";
import { json, operation } from "../operation";
import { SearchResult } from "../schemas/search";

export const searchOp = operation(
  {
    method: "post",
    path: "/v1/search",
    operationId: "search",
    shared: "read",
    tags: ["search"],
    summary: "Full-text keyword search, no embedding cost",
    auth: "wallet",
    request: { body: { content: { "application/json": { schema: searchInput } } } },
    responses: { 200: json(SearchResult, "Matches, best first") },
  },
  async (c) => c.json(await searchMemories(domain(c), c.req.valid("json")), 200),
);
