import type { TestProject } from "vitest/node";
import { startLocalChain } from "../local/chain/start";
import { startLocalDatabaseProcess } from "../local/db/process";
import { startModelProcess } from "../local/embedder/launch";
import { startFakeFacilitator } from "./fake-facilitator";
import { startFakeOpenAi } from "./fake-openai-server";
import { startPasswordFront } from "./password-front";
import { readSpecFacts } from "./spec/read";
import { startWebhookReceiver } from "./webhook-receiver";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    wsProxy: string | undefined;
    /** "on" for the embedded database, which serves one client at a time (Env.DATABASE_SERIAL). */
    databaseSerial: string;
    fakeOpenAiUrl: string;
    /** A facilitator that fails (test/fake-facilitator.ts). */
    fakeFacilitatorUrl: string;
    /** The local anvil chain of the payment tests (local/chain/start.ts), as JSON. */
    localChain: string;
    /** The local bge-small-en-v1.5 endpoint (local/embedder), or "" when it could not start… */
    bgeUrl: string;
    /** …and then why, for the real-model tests to fail with. */
    bgeProblem: string;
    /** The database behind a front that asks for a password (test/password-front.ts), as JSON. */
    passwordFront: string;
    /** The spec's memory and relation types and half-lives (test/spec/read.ts), as JSON. */
    specFacts: string;
    /** The webhook receiver and DNS stand-in (test/webhook-receiver.ts). */
    webhookReceiverUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // First: a spec the parser cannot read stops the run before anything starts.
  project.provide("specFacts", JSON.stringify(readSpecFacts()));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // In a process of its own: the embedded one computes on the thread that serves the test
  // files their modules (local/db/process.ts).
  const db = await startLocalDatabaseProcess({ databaseUrl, dataDir: "memory://" });
  console.log(
    `[test-db] suite runs against ${db.kind === "embedded" ? "embedded PGlite" : "a PostgreSQL server"}`,
  );
  // The model loads while the chain starts. The suite's Worker keeps the lexical embedder
  // (fast, exact similarities for tests of code paths); the real-model tests (test/bge-*.ts,
  // test/meaning*.ts) point a Worker at this endpoint.
  const model = startModelProcess();
  const fake = await startFakeOpenAi();
  const receiver = await startWebhookReceiver();
  project.provide("webhookReceiverUrl", receiver.url);
  const chain = await startLocalChain({ log: (line) => console.log(`[test-chain] ${line}`) });
  const facilitator = await startFakeFacilitator(chain.rpcUrl);
  project.provide("databaseUrl", db.url);
  project.provide("wsProxy", db.wsProxy);
  project.provide("databaseSerial", db.workerVars.DATABASE_SERIAL ?? "");
  project.provide("fakeOpenAiUrl", fake.url);
  project.provide("fakeFacilitatorUrl", facilitator.url);
  const front = await startPasswordFront(db.url);
  project.provide("passwordFront", JSON.stringify({ url: front.url, statsUrl: front.statsUrl }));
  const { stop: _stop, ...chainDetails } = chain;
  project.provide("localChain", JSON.stringify(chainDetails));
  const bge = await model;
  if (bge.ok)
    console.log(`[test-embedder] bge-small-en-v1.5 at ${bge.process.url} (${bge.process.source})`);
  else console.error(`[test-embedder] NO MODEL, the real-model tests will fail: ${bge.reason}`);
  project.provide("bgeUrl", bge.ok ? bge.process.url : "");
  project.provide("bgeProblem", bge.ok ? "" : bge.reason);
  return async () => {
    if (bge.ok) await bge.process.stop();
    await chain.stop();
    await fake.close();
    await receiver.close();
    await facilitator.close();
    await front.close();
    await db.stop();
  };
}
