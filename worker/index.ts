/**
 * The Worker's entry: HTTP requests go to the Hono app (app.ts), queue batches to queues/,
 * and the Meter Durable Object class is exported for its binding.
 *
 * worker/ holds the service: thin routes over domain folders (memories/, recall/, ingest/…),
 * the middleware, the providers and the database client. It imports schema/ and nothing else
 * of this repository; this file alone imports queues/ (which imports worker/ in turn), as
 * the one entry wrangler.toml names must hand batches to their consumers.
 */
import { queue } from "../queues";
import { createApp } from "./app";
import type { Env } from "./env";
import { catchUpWebhooks } from "./webhooks/run";

export { Meter } from "./meter/meter-object";

const app = createApp();

export default {
  // Hono's fetch takes (request, env, executionCtx), the shape Workers call it with.
  fetch: app.fetch,
  // Background jobs (async: true) and webhook deliveries: their queues and dead-letter
  // queues (queues/).
  queue,
  // Every minute (wrangler.toml [triggers]): webhooks behind their owner's feed catch up.
  scheduled: (_controller, env, ctx) => ctx.waitUntil(catchUpWebhooks(env)),
} satisfies ExportedHandler<Env, unknown>;
