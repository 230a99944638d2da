import { createMiddleware } from "hono/factory";
import { afterResponse } from "../lib/after-response";
import { reportPaymentProblemsOnce } from "../payment/settings";
import { openServices } from "../services";
import type { AppEnv } from "./app-env";

/** Per-request services, closed once the response is sent. */
export const services = createMiddleware<AppEnv>(async (c, next) => {
  const opened = openServices(c.env);
  c.set("services", opened.services);
  reportPaymentProblemsOnce(opened.services.config);
  try {
    await next();
  } finally {
    await afterResponse(c, opened.close(), "closing the database pool");
  }
});
