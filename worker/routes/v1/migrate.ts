import { z } from "@hono/zod-openapi";
import { domain } from "../../middleware/app-env";
import { fileInput, migrateFiles, migrateInput } from "../../migrate/migrate";
import { json, operation } from "../operation";
import { Uuid } from "../schemas/memory";

/** Files are declared with their schema but checked one by one (a bad file fails alone). */
export const MigrateFile = fileInput.openapi("MigrateFile");
const body = migrateInput.extend({
  files: migrateInput.shape.files.openapi({ items: { $ref: "#/components/schemas/MigrateFile" } }),
});

const MigrateResult = z.object({
  files_processed: z.number().int(),
  memories_created: z.number().int(),
  memories_deduplicated: z.number().int(),
  duplicates_skipped: z
    .number()
    .int()
    .openapi({ description: "= memories_deduplicated (the public clients' name)" }),
  errors: z.array(z.object({ filename: z.string(), error: z.string() })).optional(),
  memory_ids: z.array(Uuid),
  tokens_used: z.number().int(),
  dry_run: z.boolean(),
});

export const migrateOp = operation(
  {
    method: "post",
    path: "/v1/migrate",
    operationId: "migrate",
    tags: ["import and export"],
    summary: "Import Markdown files: one memory per `##` section, deduplicated by hash",
    auth: "wallet",
    price: "language_model",
    request: { body: { content: { "application/json": { schema: body } } } },
    responses: {
      201: json(MigrateResult, "What was imported; `errors` only when some files failed"),
      200: json(MigrateResult, "`dry_run: true`: what would be imported; nothing is stored"),
    },
  },
  async (c) => {
    const result = await migrateFiles(domain(c), c.req.valid("json"));
    return result.dry_run ? c.json(result, 200) : c.json(result, 201);
  },
);
