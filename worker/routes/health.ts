import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { ApiError, errorBody } from "../errors";
import { logError } from "../lib/log";
import { paymentNetwork, paymentProblems } from "../payment/settings";
import { json, operation } from "./operation";
import { ERRORS } from "./schemas/error";

export const healthOp = operation(
  {
    method: "get",
    path: "/health",
    operationId: "health",
    tags: ["service"],
    summary:
      "Liveness, database reachability, the embedder in use, and whether payments can be taken",
    auth: "public",
    responses: {
      200: json(
        z.object({
          status: z.enum(["ok", "degraded"]).openapi({
            description: "`degraded`: up, but paid calls cannot be paid (see `payments`)",
          }),
          database: z.literal("ok"),
          embedder: z.object({ provider: z.string(), model: z.string().nullable() }),
          payments: z.object({
            status: z.enum(["on", "off", "misconfigured"]).openapi({
              description:
                "`on`: x402 payments are taken; `off`: no X402_PAY_TO, nothing can be paid; `misconfigured`: the settings contradict each other (`problems`)",
            }),
            network: z.string(),
            problems: z.array(z.string()).optional(),
          }),
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
    const problems = paymentProblems(services.config);
    const payments = {
      status: problems.length > 0 ? "misconfigured" : services.config.X402_PAY_TO ? "on" : "off",
      network: paymentNetwork(services.config),
      ...(problems.length > 0 ? { problems } : {}),
    } as const;
    try {
      await services.db.execute(sql`SELECT 1`);
      return c.json(
        {
          status: problems.length > 0 ? ("degraded" as const) : ("ok" as const),
          database: "ok" as const,
          embedder,
          payments,
        },
        200,
      );
    } catch (err) {
      logError("health check: database unreachable", err);
      const error = new ApiError("SERVICE_UNAVAILABLE", "Database unreachable");
      return c.json(errorBody(error, c.get("requestId")), 503);
    }
  },
);
