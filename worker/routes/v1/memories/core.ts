/** Core memories: the pinned ones (list, pin, unpin). */
import { z } from "@hono/zod-openapi";
import { coreQuery, listCore, setPinned } from "../../../memories/core";
import { uuid } from "../../../memories/fields";
import { domain } from "../../../middleware/app-env";
import { actOnIdOperation, json, operation } from "../../operation";
import { ERRORS } from "../../schemas/error";
import { memoryPage, ShortMemory, Uuid } from "../../schemas/memory";

export const listCoreOp = operation(
  {
    method: "get",
    path: "/v1/memories/core",
    operationId: "listCoreMemories",
    tags: ["core"],
    summary: "Pinned memories, most important first",
    auth: "wallet",
    aliases: [
      { method: "get", path: "/v1/core-memories" },
      { method: "get", path: "/v1/core" },
    ],
    request: { query: coreQuery },
    responses: {
      200: json(memoryPage(ShortMemory, {}), "The page and the total"),
    },
  },
  async (c) => c.json(await listCore(domain(c), c.req.valid("query")), 200),
);

export const pinOp = operation(
  {
    method: "post",
    path: "/v1/memories/core",
    operationId: "pinMemory",
    tags: ["core"],
    summary: "Pin a memory (exempt from decay)",
    auth: "wallet",
    request: {
      body: { content: { "application/json": { schema: z.object({ memory_id: uuid }) } } },
    },
    responses: {
      200: json(z.object({ pinned: z.literal(true), id: Uuid }), "Pinned"),
      404: ERRORS[404],
    },
  },
  async (c) => {
    const id = c.req.valid("json").memory_id;
    await setPinned(domain(c), id, true);
    return c.json({ pinned: true as const, id }, 200);
  },
);

export const unpinOp = actOnIdOperation(
  {
    method: "delete",
    path: "/v1/memories/core/{id}",
    operationId: "unpinMemory",
    tags: ["core"],
    summary: "Unpin a memory (404 when it is not pinned)",
  },
  { done: "unpinned", description: "Unpinned" },
  (ctx, id) => setPinned(ctx, id, false),
);
