import type { TestProject } from "vitest/node";
import { startLocalDatabase } from "../scripts/local-db";
import { startFakeOpenAi } from "./fake-openai-server";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    wsProxy: string | undefined;
    fakeOpenAiUrl: string;
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
  project.provide("databaseUrl", db.url);
  project.provide("wsProxy", db.wsProxy);
  project.provide("fakeOpenAiUrl", fake.url);
  return async () => {
    await fake.close();
    await db.stop();
  };
}
