// Bindings the tests read through `import { env } from "cloudflare:workers"`, which is typed
// as Cloudflare.Env; vitest.config.ts supplies them.
declare namespace Cloudflare {
  interface Env {
    FAKE_OPENAI_URL: string;
  }
}
