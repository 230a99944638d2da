import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { ApiError, errorBody } from "../errors";
import { logError } from "../lib/log";
import { json, operation } from "./operation";
import { ERRORS } from "./schemas/error";

export const healthOp = operation(
  {
    method: "get",
    path: "/health",
    operationId: "health",
    tags: ["service"],
    summary: "Liveness, database reachability and the embedder in use",
    auth: "public",
    responses: {
      200: json(
        z.object({
          status: z.literal("ok"),
          database: z.literal("ok"),
          embedder: z.object({ provider: z.string(), model: z.string().nullable() }),
        }),
        "Up",
      ),
      503: ERRORS[503],
    },
  },
  async (c) => {
    const services = c.get("services");
    // Which embedder and model this deployment stores vectors with (docs/embeddings.md);
    // building it contacts nothing, so a misconfigured one shows as a null model here.
    let model: string | null = null;
    try {
      model = services.embedder.model;
    } catch {
      // the request paths that embed report the misconfiguration
    }
    const embedder = { provider: services.config.EMBEDDER, model };
    try {
      await services.db.execute(sql`SELECT 1`);
      return c.json({ status: "ok" as const, database: "ok" as const, embedder }, 200);
    } catch (err) {
      logError("health check: database unreachable", err);
      const error = new ApiError("SERVICE_UNAVAILABLE", "Database unreachable");
      return c.json(errorBody(error, c.get("requestId")), 503);
    }
  },
);
