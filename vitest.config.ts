import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/**
 * Tests run inside workerd (the Workers runtime) against a real Postgres: the global setup
 * starts the embedded one, or uses DATABASE_URL when it is set (CI runs the suite both ways),
 * and hands its address to the Worker as bindings.
 */
export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => ({
      main: "./worker/index.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          DATABASE_URL: inject("databaseUrl"),
          NEON_WS_PROXY: inject("wsProxy") ?? "",
          JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
          AUTH_MESSAGE_PREFIX: "service-auth",
          EMBEDDER: "local",
          FAKE_OPENAI_URL: inject("fakeOpenAiUrl"),
        },
      },
    })),
  ],
  test: {
    globalSetup: ["./test/global-setup.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
