import type { TestProject } from "vitest/node";
import { startLocalChain } from "../scripts/local-chain";
import { startLocalDatabase } from "../scripts/local-db";
import { startFakeOpenAi } from "./fake-openai-server";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    wsProxy: string | undefined;
    fakeOpenAiUrl: string;
    /** The local anvil chain of the payment tests (scripts/local-chain.ts), as JSON. */
    localChain: string;
  }
}

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const db = await startLocalDatabase({
    databaseUrl,
    dataDir: "memory://",
    log: (line) => console.log(`[test-db] ${line}`),
  });
  console.log(
    `[test-db] suite runs against ${db.kind === "embedded" ? "embedded PGlite" : "a PostgreSQL server"}`,
  );
  const fake = await startFakeOpenAi();
  const chain = await startLocalChain({ log: (line) => console.log(`[test-chain] ${line}`) });
  project.provide("databaseUrl", db.url);
  project.provide("wsProxy", db.wsProxy);
  project.provide("fakeOpenAiUrl", fake.url);
  const { stop: _stop, ...chainDetails } = chain;
  project.provide("localChain", JSON.stringify(chainDetails));
  return async () => {
    await chain.stop();
    await fake.close();
    await db.stop();
  };
}
