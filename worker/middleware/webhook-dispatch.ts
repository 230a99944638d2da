import { createMiddleware } from "hono/factory";
import { dispatchAfterResponse } from "../webhooks/run";
import type { AppEnv } from "./app-env";

/**
 * After a request that may have written (any method but GET, HEAD and OPTIONS, answered 2xx),
 * the webhooks of the owner it worked on are dispatched, off the response path
 * (docs/webhooks.md). For a wallet without webhooks that costs nothing after the first time
 * in an isolate (webhooks/dispatch-cache.ts).
 */
export const webhookDispatch = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return;
  if (c.res.status < 200 || c.res.status >= 300) return;
  const caller = c.get("caller");
  if (!caller) return;
  dispatchAfterResponse(c.get("services"), c.env, caller.userId);
});
