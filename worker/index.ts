import { createApp } from "./app";
import type { Env } from "./env";

export { Meter } from "./meter/meter-object";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
