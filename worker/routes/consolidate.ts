import type { Hono } from "hono";
import { consolidate, consolidateInput } from "../consolidate/consolidate";
import { type AppEnv, domain } from "../context";
import { acceptingAsync } from "../jobs/submit";
import { valid } from "../lib/validate";
import { acceptJob } from "./jobs";

/** With `async: true` (any mode, dry runs included) the answer is 202 with a job. */
export function consolidateRoutes(app: Hono<AppEnv>) {
  app.post(
    "/v1/memories/consolidate",
    valid("json", acceptingAsync(consolidateInput)),
    async (c) => {
      const { async: background, ...input } = c.req.valid("json");
      if (background) return acceptJob(c, "consolidate", input);
      return c.json(await consolidate(domain(c), input));
    },
  );
}
