/** Relations of one memory: create, list, delete. */
import { z } from "@hono/zod-openapi";
import {
  createRelation,
  createRelationInput,
  deleteRelation,
  listRelations,
  listRelationsQuery,
} from "../../../memories/relations";
import { domain } from "../../../middleware/app-env";
import { json, operation } from "../../operation";
import { ERRORS } from "../../schemas/error";
import { Uuid } from "../../schemas/memory";
import { IdParam, RelationParams } from "../../schemas/params";
import { ListedRelation, Relation } from "../../schemas/relation";

export const createRelationOp = operation(
  {
    method: "post",
    path: "/v1/memories/{id}/relations",
    operationId: "createRelation",
    tags: ["relations"],
    summary: "Link this memory to another",
    auth: "wallet",
    request: {
      params: IdParam,
      body: { content: { "application/json": { schema: createRelationInput } } },
    },
    responses: {
      201: json(
        Relation.extend({
          created: z
            .literal(true)
            .openapi({ description: "Beside the relation's fields, for the TypeScript SDK" }),
        }),
        "The new relation",
      ),
      404: ERRORS[404],
      409: { ...ERRORS[409], description: "This relation already exists" },
    },
  },
  async (c) => {
    const relation = await createRelation(domain(c), c.req.valid("param").id, c.req.valid("json"));
    return c.json({ ...relation, created: true as const }, 201);
  },
);

export const listRelationsOp = operation(
  {
    method: "get",
    path: "/v1/memories/{id}/relations",
    operationId: "listRelations",
    tags: ["relations"],
    summary:
      "Incoming and outgoing relations; a supersedes link to a memory consolidation merged away shows that memory as deleted",
    auth: "wallet",
    request: { params: IdParam, query: listRelationsQuery },
    responses: {
      200: json(z.object({ relations: z.array(ListedRelation) }), "The relations"),
      404: ERRORS[404],
    },
  },
  async (c) =>
    c.json(
      {
        relations: await listRelations(domain(c), c.req.valid("param").id, c.req.valid("query")),
      },
      200,
    ),
);

export const deleteRelationOp = operation(
  {
    method: "delete",
    path: "/v1/memories/{id}/relations/{relationId}",
    operationId: "deleteRelation",
    tags: ["relations"],
    summary: "Remove a relation",
    auth: "wallet",
    request: { params: RelationParams },
    responses: {
      200: json(z.object({ deleted: z.literal(true), id: Uuid }), "Removed"),
      404: ERRORS[404],
    },
  },
  async (c) => {
    const { id: memoryId, relationId } = c.req.valid("param");
    await deleteRelation(domain(c), memoryId, relationId);
    return c.json({ deleted: true as const, id: relationId }, 200);
  },
);
