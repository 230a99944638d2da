import { searchMemories, searchQueryString } from "../../../memories/search";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";
import { SearchResult } from "../../schemas/search";

/** The query-string form of POST /v1/search, which the public clients use. */
export const searchMemoriesGetOp = operation(
  {
    method: "get",
    path: "/v1/memories/search",
    operationId: "searchMemoriesGet",
    shared: "read",
    tags: ["search"],
    summary: "Full-text keyword search (query-string form)",
    auth: "wallet",
    request: { query: searchQueryString },
    responses: { 200: json(SearchResult, "Matches, best first") },
  },
  async (c) => c.json(await searchMemories(domain(c), c.req.valid("query")), 200),
);
