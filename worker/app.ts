import { OpenAPIHono } from "@hono/zod-openapi";
import { ApiError, errorBody } from "./errors";
import { validationError } from "./lib/validate";
import type { AppEnv } from "./middleware/app-env";
import { identify, requireWallet } from "./middleware/auth";
import { inputGuard } from "./middleware/body";
import { errorResponse } from "./middleware/error-response";
import { metering, rateLimit } from "./middleware/meter";
import { requestLog } from "./middleware/request-log";
import { securityHeaders } from "./middleware/security-headers";
import { services } from "./middleware/services";
import { webhookDispatch } from "./middleware/webhook-dispatch";
import { operationFor, PAID_ROUTES, registerRoutes } from "./routes";

/**
 * Builds the Hono app: request ids and log lines, per-request services, identity and rate
 * limits, body checks, the routes, and one error path so every failure has the body
 * `{error: {code, message, details?, request_id}}`.
 */
export function createApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    // Every request-schema failure is the one 422 body, with the failing fields.
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });

  app.use(securityHeaders);
  // The request id, Server-Timing, and the request's one log line (docs/operations.md).
  app.use(requestLog);
  // Hono hands only Error instances to onError and rethrows anything else, which the runtime
  // answers with its own 500 page. The database driver rejects with its socket's "error"
  // Event when a connection drops while it is being opened (a database stopped mid-request):
  // wrapped, it reaches onError, which answers 503 like any lost connection.
  app.use(async (_c, next) => {
    try {
      await next();
    } catch (err) {
      throw err instanceof Error ? err : new Error("A non-Error value was thrown", { cause: err });
    }
  });
  // Services first (lazy: no connection is opened here) and the declared operation of the
  // request (routes/index.ts), then who is calling and whether they are over their rate
  // limit, before the body is even read: a refused request costs one Durable Object call,
  // and every later response (4xx, 404) gets the rate-limit headers. Then the operation's
  // own guard: a wallet where it needs one. A paid operation's free call or payment is taken
  // after its input is validated, at its charge point (middleware/charge.ts).
  app.use(services);
  app.use(async (c, next) => {
    const operation = operationFor(c.req.method, c.req.path);
    c.set("operation", operation);
    c.set("paidRoutes", PAID_ROUTES);
    c.set("paidRoute", operation?.price ? PAID_ROUTES.find(c.req.method, c.req.path) : undefined);
    await next();
  });
  app.use(metering);
  app.use(identify);
  app.use(rateLimit);
  app.use(inputGuard);
  // An unknown /v1 path needs a wallet too, so that only an identified caller learns which
  // paths exist (401 first, then 404).
  app.use((c, next) => {
    const op = c.get("operation");
    const needsWallet = op ? op.auth === "wallet" : c.req.path.startsWith("/v1/");
    return needsWallet ? requireWallet(c, next) : next();
  });
  // Webhooks hear of a write once its response is sent (docs/webhooks.md).
  app.use(webhookDispatch);

  registerRoutes(app);

  app.notFound((c) =>
    c.json(
      errorBody(
        new ApiError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`),
        c.get("requestId") ?? crypto.randomUUID(),
      ),
      404,
    ),
  );

  app.onError((err, c) => errorResponse(c, err));

  return app;
}
