/**
 * The embedding process (started by launch.ts): finds the model files (model-files.ts),
 * loads bge-small-en-v1.5 once, checks it against the reference vector, and serves it on
 * 127.0.0.1 (server.ts). Its first stdout line is JSON for the parent:
 *   {"ready": true, "url", "model", "source", "dir"}   or   {"ready": false, "reason"}
 * Everything else goes to stderr. It exits when its stdin closes (local/child.ts).
 *
 *   node --import tsx local/embedder/main.ts [--port N]
 */
import { parseArgs } from "node:util";
import { WORKERS_AI_EMBEDDING_MODEL } from "../../worker/embed/workers-ai";
import { replyToParent, stopWithParent } from "../child";
import { Batcher } from "./batcher";
import { BgeModel } from "./bge";
import { findModel } from "./model-files";
import { startEmbeddingServer } from "./server";

/**
 * First five dimensions of "The cat sits on the mat", from the model's README (the same in
 * Python onnxruntime and transformers.js): a wrong file, tokenizer or pooling shows here.
 */
const REFERENCE_TEXT = "The cat sits on the mat";
const REFERENCE_VALUES = [0.03429, -0.02205, 0.00733, 0.05193, -0.02372];

const log = (line: string) => process.stderr.write(`[embedder] ${line}\n`);

function progress(line: string, final: boolean): void {
  if (process.stderr.isTTY) {
    process.stderr.write(`\r[embedder] downloading ${line}${final ? "\n" : ""}`);
  } else if (final || / (?:[1-9]0)% /.test(line)) {
    log(`downloading ${line}`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: "string", default: "0" } } });
  const found = await findModel({ env: process.env, progress });
  if (!found.ok) {
    replyToParent({
      ready: false,
      reason: `bge-small-en-v1.5 not found: ${found.tried.join("; ")}`,
    });
    process.exit(0);
  }
  for (const line of found.skipped.filter((s) => s.startsWith("EMBEDDING_MODEL_DIR ("))) {
    log(`ignored ${line}`);
  }
  const started = performance.now();
  const model = await BgeModel.load(found.model.dir);
  const [reference] = await model.embed([REFERENCE_TEXT]);
  const off = REFERENCE_VALUES.findIndex((x, i) => Math.abs((reference?.[i] ?? 0) - x) > 5e-4);
  if (off !== -1) {
    replyToParent({
      ready: false,
      reason: `the model in ${found.model.dir} does not reproduce the reference vector (dimension ${off}: ${reference?.[off]} instead of ${REFERENCE_VALUES[off]})`,
    });
    process.exit(0);
  }
  const batcher = new Batcher((texts: string[]) => model.embed(texts));
  const server = await startEmbeddingServer({
    batcher,
    model: WORKERS_AI_EMBEDDING_MODEL,
    source: found.model.source,
    port: Number(values.port),
  });
  log(`model loaded in ${Math.round(performance.now() - started)} ms from ${found.model.dir}`);
  replyToParent({
    ready: true,
    url: server.url,
    model: WORKERS_AI_EMBEDDING_MODEL,
    source: found.model.source,
    dir: found.model.dir,
  });

  stopWithParent(async () => {
    await server.close();
    await model.close();
  });
}

main().catch((err: unknown) => {
  replyToParent({ ready: false, reason: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
