import type { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, domain } from "../context";
import { valid } from "../lib/validate";
import { uuid } from "../memories/fields";
import { memoryHistoryOf } from "../memories/history";
import {
  createRelation,
  createRelationInput,
  deleteRelation,
  graphQuery,
  listRelations,
  listRelationsQuery,
  memoryGraph,
} from "../memories/relations";
import { idParam } from "./memories";

/** Relations, graph and history of one memory. */
export function relationRoutes(app: Hono<AppEnv>) {
  const id = valid("param", idParam);

  app.post("/v1/memories/:id/relations", id, valid("json", createRelationInput), async (c) =>
    c.json(await createRelation(domain(c), c.req.valid("param").id, c.req.valid("json")), 201),
  );

  app.get("/v1/memories/:id/relations", id, valid("query", listRelationsQuery), async (c) =>
    c.json({
      relations: await listRelations(domain(c), c.req.valid("param").id, c.req.valid("query")),
    }),
  );

  app.delete(
    "/v1/memories/:id/relations/:relationId",
    valid("param", z.object({ id: uuid, relationId: uuid })),
    async (c) => {
      const { id: memoryId, relationId } = c.req.valid("param");
      await deleteRelation(domain(c), memoryId, relationId);
      return c.json({ deleted: true, id: relationId });
    },
  );

  app.get("/v1/memories/:id/graph", id, valid("query", graphQuery), async (c) =>
    c.json(await memoryGraph(domain(c), c.req.valid("param").id, c.req.valid("query"))),
  );

  app.get("/v1/memories/:id/history", id, async (c) =>
    c.json({ history: await memoryHistoryOf(domain(c), c.req.valid("param").id) }),
  );
}
