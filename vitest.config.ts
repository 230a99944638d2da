import { mkdirSync, readFileSync } from "node:fs";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// wrangler.toml's [assets] folder must exist for the Workers pool to start. The pool does not
// run wrangler's [build] and its SELF reaches the Worker itself, so the `worker` project needs
// no console; the `browser` project serves the built one through wrangler dev.
mkdirSync(new URL("./console/dist", import.meta.url), { recursive: true });

/** The `//# sourceMappingURL=` comment that ends a built file. */
const MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;

/**
 * Dependencies' source maps left out of what each test file loads. Every test file imports the
 * Worker afresh in an isolate of its own, and each module reaches it over the pool's socket as
 * one serialized string with its source map inlined; for the pre-bundled dependencies, whose
 * maps Vite fills with the whole text of their original sources, the maps were most of that
 * payload. The worker project, 154 files, 2 at a time: 478 s -> 397 s (672 -> 565 CPU seconds)
 * with every map left out; 3 at a time, 331 s whether our own maps were left out too or not.
 * Ours stay, so a stack trace names our lines.
 */
const withoutDependencySourceMaps = {
  name: "without-dependency-source-maps",
  enforce: "post" as const,
  transform: (code: string, id: string) =>
    id.includes("/node_modules/") ? { code, map: { mappings: "" } } : null,
  // A dependency's own map comment is dropped as its file is read, so Vite never opens the map
  // it names: standardwebhooks ships maps that name sources it does not ship, and Vite warned
  // "Sourcemap for …/standardwebhooks/dist/index.js points to missing source files" on every
  // run (through test/webhook-receiver.ts, in the global setup).
  load(id: string) {
    const file = id.split("?")[0] ?? id;
    if (!file.includes("/node_modules/") || !/\.[cm]?js$/.test(file)) return null;
    let code: string;
    try {
      code = readFileSync(file, "utf8");
    } catch {
      return null; // not a file on disk (a virtual module): Vite's own loading says why
    }
    return MAP_COMMENT.test(code) ? { code: code.replace(MAP_COMMENT, ""), map: null } : null;
  },
};

/** A request's log line as the console prints it: `{ event: 'request', …` (maybe colored). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the console's color codes.
const REQUEST_LINE = /^\{\s*event: (\x1b\[\d+m)?'request'/;

/**
 * Tests run inside workerd (the Workers runtime) against a real Postgres: the global setup
 * starts the embedded one, or uses DATABASE_URL when it is set (CI runs the suite both ways),
 * and hands its address to the Worker as bindings.
 */
export default defineConfig({
  test: {
    // Every request logs one line (worker/middleware/request-log.ts), thousands in a run: they
    // are left out of the output (test/lib/log.test.ts checks them). Only the root config's
    // filter is applied.
    onConsoleLog: (log) => !REQUEST_LINE.test(log),
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
                // "on" for the embedded database (stores hold it once; memories/store.ts).
                DATABASE_SERIAL: inject("databaseSerial"),
                JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
                AUTH_MESSAGE_PREFIX: "service-auth",
                EMBEDDER: "local",
                FAKE_OPENAI_URL: inject("fakeOpenAiUrl"),
                // A remote facilitator that fails (test/fake-facilitator.ts).
                FAKE_FACILITATOR_URL: inject("fakeFacilitatorUrl"),
                // The database behind a front that asks for a password (test/password-front.ts).
                PASSWORD_FRONT: inject("passwordFront"),
                // The anvil chain of the payment tests (JSON, local/chain/start.ts). The Worker's
                // own X402_* settings stay at their defaults (Base, payments off) for the suite;
                // test/payment/chain.ts points a Worker at the chain by passing it X402_* itself.
                LOCAL_CHAIN: inject("localChain"),
                // bge-small-en-v1.5 in a local process (local/embedder), for the real-model
                // tests, which pass it to a Worker as EMBEDDING_API_URL; "" and the reason when
                // it could not start.
                BGE_EMBEDDINGS_URL: inject("bgeUrl"),
                BGE_PROBLEM: inject("bgeProblem"),
                // The memory and relation types and half-lives, read from the spec itself.
                SPEC_FACTS: inject("specFacts"),
                // Webhooks as in npm run dev: http and loopback targets allowed, host names
                // resolved by the receiver's DNS stand-in (test/webhook-receiver.ts).
                WEBHOOK_RECEIVER_URL: inject("webhookReceiverUrl"),
                WEBHOOKS_ALLOW_LOCAL: "on",
                WEBHOOKS_DNS_URL: `${inject("webhookReceiverUrl")}/dns-query`,
              },
            },
          })),
          withoutDependencySourceMaps,
        ],
        test: {
          name: "worker",
          // Files are run three at a time on 2 cores: they wait on the database, on timers (a
          // settlement's bound, a long poll, a started npm run dev) and on their module imports
          // as much as they compute. Two at a time kept 1.4 cores busy; the whole worker project
          // (with the maps above left out) took 397 s with two, 331 s with three (2026-12-02).
          maxWorkers: 3,
          // Dependencies pre-bundled into one module each: every test file imports the Worker
          // afresh in its own isolate, and viem, zod, x402 and the MCP SDK are thousands of
          // modules fetched one at a time (16 files: 217 s -> 141 s, imports 161 -> 84 s).
          // "url" is a Node built-in that @x402/extensions imports; workerd provides it.
          deps: {
            optimizer: {
              ssr: {
                enabled: true,
                rolldownOptions: { external: ["url"] },
                include: [
                  "viem",
                  "viem/accounts",
                  "hono",
                  "hono/factory",
                  "hono/http-exception",
                  "zod",
                  "@hono/zod-openapi",
                  "drizzle-orm",
                  "drizzle-orm/pg-core",
                  "drizzle-orm/neon-serverless",
                  "@x402/core/types",
                  "@x402/core/http",
                  "@x402/core/server",
                  "@x402/evm",
                  "@x402/evm/exact/server",
                  "jose",
                  "@x402/extensions/sign-in-with-x",
                  "@x402/extensions/payment-identifier",
                  "@x402/extensions/bazaar",
                  "@modelcontextprotocol/sdk/types.js",
                  "@modelcontextprotocol/sdk/server/index.js",
                  "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js",
                  "@modelcontextprotocol/sdk/validation/cfworker-provider.js",
                  "standardwebhooks",
                ],
              },
            },
          },
          globalSetup: ["./test/global-setup.ts"],
          include: ["test/**/*.test.ts"],
          exclude: ["test/node/**", "test/local/**", "test/bench/**", "test/browser/**"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Node-side pieces: the local runtime (test/local), the benchmark's pieces (test/bench) and
      // the clients that drive a started service (test/node). Plain Node, no Worker.
      {
        test: {
          name: "node",
          // The same as the worker project's: projects of one group must agree.
          maxWorkers: 3,
          include: ["test/node/**/*.test.ts", "test/local/**/*.test.ts", "test/bench/**/*.test.ts"],
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
          maxWorkers: 1,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
