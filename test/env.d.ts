// Bindings the tests read through `import { env } from "cloudflare:workers"`, which is typed
// as Cloudflare.Env; vitest.config.ts supplies them (METER comes from wrangler.toml).
declare namespace Cloudflare {
  interface Env {
    /** The suite's Postgres, for what the API cannot do (test/db.ts). */
    DATABASE_URL: string;
    /** "tcp" (the suite's Worker reaches its Postgres over Workers TCP sockets). */
    DATABASE_TRANSPORT: string;
    /** The local WebSocket proxy (host:port), for tests of the `websocket` transport. */
    NEON_WS_PROXY: string;
    FAKE_OPENAI_URL: string;
    /** A remote x402 facilitator that fails (test/fake-facilitator.ts). */
    FAKE_FACILITATOR_URL: string;
    /** "on" when the suite runs on the embedded database (Env.DATABASE_SERIAL), else "". */
    DATABASE_SERIAL: string;
    /** JSON `{url, statsUrl}` of the database behind a front that asks for a password. */
    PASSWORD_FRONT: string;
    /** JSON of the local chain (local/chain/details.ts ChainDetails). */
    LOCAL_CHAIN: string;
    /** The local bge-small-en-v1.5 embeddings API (…/v1), or "" with BGE_PROBLEM saying why. */
    BGE_EMBEDDINGS_URL: string;
    BGE_PROBLEM: string;
    /** JSON of the spec's facts (test/spec/parse.ts SpecFacts); read it as test/spec/facts.ts. */
    SPEC_FACTS: string;
    /** The webhook receiver and DNS stand-in of the global setup (test/webhook-receiver.ts). */
    WEBHOOK_RECEIVER_URL: string;
    /** "on": webhooks may target http and loopback, as in npm run dev. */
    WEBHOOKS_ALLOW_LOCAL: string;
    /** The receiver's DNS-over-HTTPS stand-in. */
    WEBHOOKS_DNS_URL: string;
    WEBHOOKS_QUEUE: Queue;
    METER: DurableObjectNamespace<import("../worker/meter/meter-object").Meter>;
  }
}
