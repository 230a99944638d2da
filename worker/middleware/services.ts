import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";
import { afterResponse } from "../lib/after-response";
import { openServices } from "../services";

/** Per-request services, closed once the response is sent. */
export const services = createMiddleware<AppEnv>(async (c, next) => {
  const opened = openServices(c.env);
  c.set("services", opened.services);
  try {
    await next();
  } finally {
    await afterResponse(c, opened.close(), "closing the database pool");
  }
});
