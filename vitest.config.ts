import { mkdirSync } from "node:fs";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// wrangler.toml's [assets] folder must exist for the Workers pool to start. The pool does not
// run wrangler's [build] and its SELF reaches the Worker itself, so the `worker` project needs
// no console; the `browser` project serves the built one through wrangler dev.
mkdirSync(new URL("./console/dist", import.meta.url), { recursive: true });

/**
 * Tests run inside workerd (the Workers runtime) against a real Postgres: the global setup
 * starts the embedded one, or uses DATABASE_URL when it is set (CI runs the suite both ways),
 * and hands its address to the Worker as bindings.
 */
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest(({ inject }) => ({
            main: "./worker/index.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                DATABASE_URL: inject("databaseUrl"),
                // The Worker reaches the local Postgres over Workers TCP sockets, as npm run dev
                // does; test/transport.test.ts runs it over the WebSocket proxy too.
                DATABASE_TRANSPORT: inject("wsProxy") ? "tcp" : "",
                NEON_WS_PROXY: inject("wsProxy") ?? "",
                JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
                AUTH_MESSAGE_PREFIX: "service-auth",
                EMBEDDER: "local",
                FAKE_OPENAI_URL: inject("fakeOpenAiUrl"),
                // The anvil chain of the payment tests (JSON, scripts/local-chain.ts). The Worker's
                // own X402_* settings stay at their defaults (Base, payments off) for the suite;
                // test/payment/chain.ts points a Worker at the chain by passing it X402_* itself.
                LOCAL_CHAIN: inject("localChain"),
                // bge-small-en-v1.5 in a local process (scripts/embedder), for the real-model
                // tests, which pass it to a Worker as EMBEDDING_API_URL; "" and the reason when
                // it could not start.
                BGE_EMBEDDINGS_URL: inject("bgeUrl"),
                BGE_PROBLEM: inject("bgeProblem"),
              },
            },
          })),
        ],
        test: {
          name: "worker",
          globalSetup: ["./test/global-setup.ts"],
          include: ["test/**/*.test.ts"],
          exclude: ["test/node/**", "test/browser/**"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Node-side pieces (the embedded database's wire-protocol front): plain Node, no Worker.
      {
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // The web console in Debian's chromium (playwright-core), against wrangler dev on a free
      // port with an embedded database of its own (test/browser/harness.ts). It runs after the
      // other two, so a browser and a second workerd do not compete with them for 2 cores.
      {
        test: {
          name: "browser",
          globalSetup: ["./test/browser/global-setup.ts"],
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
