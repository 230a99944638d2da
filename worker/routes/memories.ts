import type { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, domain } from "../context";
import { valid } from "../lib/validate";
import { deleteMany, deleteMemory } from "../memories/delete";
import { LIMITS, uuid } from "../memories/fields";
import {
  countMemories,
  getMemory,
  listMemories,
  listQuery,
  memoryFilters,
  tagCounts,
} from "../memories/list";
import { searchMemories, searchQueryString } from "../memories/search";
import { updateInput, updateMany, updateMemory } from "../memories/update";

export const idParam = z.object({ id: uuid });

const batchUpdateInput = z.object({
  // Items are validated one by one so that a bad item fails alone (reported in `errors`).
  updates: z
    .array(z.unknown())
    .min(1, "at least 1 update")
    .max(LIMITS.batch, `at most ${LIMITS.batch} updates`),
});

const idsInput = z.object({
  ids: z.array(uuid).min(1, "at least 1 id").max(LIMITS.batch, `at most ${LIMITS.batch} ids`),
});

export function memoryRoutes(app: Hono<AppEnv>) {
  app.get("/v1/memories", valid("query", listQuery), async (c) =>
    c.json(await listMemories(domain(c), c.req.valid("query"))),
  );

  app.get("/v1/memories/count", valid("query", memoryFilters), async (c) =>
    c.json({ count: await countMemories(domain(c), c.req.valid("query")) }),
  );

  app.get("/v1/memories/search", valid("query", searchQueryString), async (c) =>
    c.json(await searchMemories(domain(c), c.req.valid("query"))),
  );

  app.get("/v1/tags", valid("query", z.object({ namespace: z.string().optional() })), async (c) =>
    c.json({ tags: await tagCounts(domain(c), c.req.valid("query").namespace) }),
  );

  const batchUpdate = valid("json", batchUpdateInput);
  app.patch("/v1/memories/batch", batchUpdate, async (c) =>
    c.json(await updateMany(domain(c), c.req.valid("json").updates)),
  );
  app.post("/v1/memories/batch-update", batchUpdate, async (c) =>
    c.json(await updateMany(domain(c), c.req.valid("json").updates)),
  );

  const ids = valid("json", idsInput);
  app.delete("/v1/memories", ids, async (c) => {
    const outcomes = await deleteMany(domain(c), c.req.valid("json").ids);
    return c.json({
      deleted: outcomes.filter((o) => o.deleted).length,
      errors: outcomes.filter((o) => !o.deleted).map((o) => o.id),
    });
  });
  app.post("/v1/memories/bulk-delete", ids, async (c) => {
    const outcomes = await deleteMany(domain(c), c.req.valid("json").ids);
    return c.json({
      deleted: outcomes.filter((o) => o.deleted).length,
      errors: outcomes.filter((o) => !o.deleted).map((o) => o.id),
    });
  });
  app.post("/v1/memories/batch-delete", ids, async (c) =>
    c.json({ results: await deleteMany(domain(c), c.req.valid("json").ids) }),
  );

  app.get("/v1/memories/:id", valid("param", idParam), async (c) =>
    c.json(await getMemory(domain(c), c.req.valid("param").id)),
  );

  app.patch("/v1/memories/:id", valid("param", idParam), valid("json", updateInput), async (c) =>
    c.json(await updateMemory(domain(c), c.req.valid("param").id, c.req.valid("json"))),
  );

  app.delete("/v1/memories/:id", valid("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    await deleteMemory(domain(c), id);
    return c.json({ deleted: true, id });
  });
}
