import { queue } from "../queues";
import { createApp } from "./app";
import type { Env } from "./env";

export { Meter } from "./meter/meter-object";

const app = createApp();

export default {
  // Hono's fetch takes (request, env, executionCtx), the shape Workers call it with.
  fetch: app.fetch,
  // Background jobs (async: true): the jobs queue and its dead-letter queue (queues/).
  queue,
} satisfies ExportedHandler<Env, unknown>;
