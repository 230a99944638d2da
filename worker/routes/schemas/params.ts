import { z } from "@hono/zod-openapi";
import { uuid } from "../../memories/fields";

/** `{id}` of a memory (or a job): a UUID, lower-cased. */
export const IdParam = z.object({ id: uuid });

/** `{id}` and `{relationId}` of DELETE /v1/memories/{id}/relations/{relationId}. */
export const RelationParams = z.object({ id: uuid, relationId: uuid });
