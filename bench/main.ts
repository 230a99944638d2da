/**
 * `npm run bench`: the service measured on this machine, side by side with Mem0's open-source
 * SDK (same machine, same data, same embeddings, one run).
 *
 * Starts its own database (embedded PGlite, or a scratch database on the DATABASE_URL server,
 * dropped at the end), the run's embedder (systems/embedding.ts: production's bge-small-en-v1.5
 * in a local process by default, `--embedder local` for the lexical one), `wrangler dev` on
 * port 8788 embedding with it, and an OpenAI-compatible endpoint on 127.0.0.1 serving the same
 * vectors to Mem0. Parts (bench/):
 *
 * - locomo: evidence recall@1/5/10 and hit@1/5/10 per category on LoCoMo, REALTALK or any
 *   dataset in LoCoMo's layout (--dataset), recall latency and ingest time, for ours (over
 *   HTTP), Mem0 (in process), BM25 and exact cosine (in process references).
 *   Skipped with a message when the dataset file is missing.
 * - speed: store, batch store, recall at each wallet size, search and list over HTTP, and Mem0
 *   insert throughput and recall latency on the same texts and queries.
 * - neighbours: one wallet stores `--neighbour-size` memories in batches while another recalls;
 *   the importer's rate and the neighbour's recall latency.
 * - concurrency: many wallets at once, on the embedded database and DATABASE_URL's server.
 * - distance (needs DATABASE_URL): each operation's latency with the database `--delay` ms away
 *   (a delay proxy, PgBouncers and wrangler of its own), and its Worker↔database round trips.
 * - paid: x402 payments settled on a local chain (paid.ts): a paid store's and a paid recall's
 *   latency, one payer's concurrent paid calls, N payments at once over the payer's balance,
 *   and the mixed load of payments over a balance beside a funded payer (--mixed-rounds);
 *   once per `--block-time` (0: a block per transaction; 2: Base's block time).
 *
 * Prints one table per part and writes bench-results/{locomo|realtalk,speed}-<embedded|server>.json,
 * neighbours-<embedded|server>.json, concurrency.json, distance.json and paid.json.
 *
 * How to run it: USAGE below, or `npm run bench -- --help`.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../local/service";
import { runConcurrency } from "./concurrency";
import { Cleanups, runDistance } from "./distance/index";
import { log, machine, printTable, type Table, writeJson } from "./lib/report";
import { runLocomo } from "./locomo/index";
import { runNeighbours } from "./neighbours";
import { runPaid } from "./paid";
import { runSpeed } from "./speed/index";
import { type EmbedServer, startEmbedServer } from "./systems/embed-server";
import { type BenchEmbedding, type EmbedderKind, startBenchEmbedding } from "./systems/embedding";
import { cleanupMem0 } from "./systems/mem0";
import { type Stack, startStack } from "./systems/stack";
import { runUpdates } from "./updates/index";

const USAGE = `npm run bench [-- options]: the service beside Mem0 on this machine, one table per part
on stdout and JSON in bench-results/. Parts: locomo, speed, neighbours, concurrency, paid, and
distance (skipped without DATABASE_URL); all of them unless --only names one.

  npm run bench                                       # every part, sizes 1000,10000,100000
  npm run bench -- --only locomo                      # quality only
  npm run bench -- --only locomo --embedder local     # with the lexical embedder
  npm run bench -- --only speed --sizes 1000,10000 --queries 100
  npm run bench -- --only neighbours --embedder local # one import beside one wallet's recalls
  npm run bench -- --only locomo --dataset realtalk   # REALTALK's dev split (or a path)
  npm run bench -- --only locomo --dataset path/to/data.json --categories 1=multi-hop,2=temporal
  npm run bench -- --only locomo --hold-out conv-43   # that conversation reported apart
  npm run bench -- --locomo path/to/locomo.json --skip-mem0
  npm run bench -- --only paid --block-time 0,2         # x402 on a local chain, Base's 2 s blocks
  DATABASE_URL=postgres://… npm run bench             # a real PostgreSQL server
  DATABASE_URL=postgres://… npm run bench -- --only distance --delay 20 --rounds 20`;

/** The command line, or the usage and exit: --help, or an option this bench does not have. */
function parseCommandLine() {
  try {
    const parsed = parseArgs({ options: OPTIONS });
    if (parsed.values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return parsed.values;
  } catch (err) {
    console.error(`npm run bench: ${err instanceof Error ? err.message : err}\n\n${USAGE}`);
    process.exit(2);
  }
}

const OPTIONS = {
  only: { type: "string" },
  embedder: { type: "string", default: "bge" },
  // The quality part's dataset: locomo, realtalk (../shared's dev splits) or a file's path;
  // --locomo is its older name. --categories names another dataset's categories.
  dataset: { type: "string" },
  locomo: { type: "string" },
  categories: { type: "string" },
  "hold-out": { type: "string" },
  "skip-mem0": { type: "boolean", default: false },
  // The knowledge-update part: N updates and controls in proportion (bench/updates/).
  "updates-items": { type: "string" },
  sizes: { type: "string", default: "1000,10000,100000" },
  queries: { type: "string", default: "200" },
  "other-rows": { type: "string" },
  "other-large-rows": { type: "string" },
  "api-seed-max": { type: "string", default: "10000" },
  "mem0-max-size": { type: "string", default: "10000" },
  "neighbour-size": { type: "string", default: "10000" },
  wallets: { type: "string", default: "20" },
  // Rounds per wallet for concurrency (default 5), requests per operation for distance (20).
  rounds: { type: "string" },
  delay: { type: "string", default: "20" },
  // The paid part: paid calls timed per operation, one payer's calls at once, payments at once
  // over the balance, and the chain's seconds between blocks (one run each).
  "paid-calls": { type: "string", default: "20" },
  concurrent: { type: "string", default: "10" },
  attack: { type: "string", default: "6" },
  "mixed-rounds": { type: "string", default: "20" },
  "block-time": { type: "string", default: "0,2" },
  port: { type: "string", default: "8788" },
  out: { type: "string", default: `${ROOT}bench-results` },
  help: { type: "boolean", short: "h", default: false },
} as const;

const args = parseCommandLine();

const PARTS = [
  "locomo",
  "updates",
  "speed",
  "neighbours",
  "concurrency",
  "paid",
  "distance",
] as const;
type Part = (typeof PARTS)[number];

/** ../shared's dev split of a named dataset, or the path given. */
function datasetPath(dataset: string): string {
  const named: Record<string, string> = {
    locomo: "../shared/datasets/locomo/locomo-dev.json",
    realtalk: "../shared/datasets/realtalk/realtalk-dev.json",
  };
  const file = named[dataset.toLowerCase()];
  return file ? resolve(ROOT, file) : resolve(dataset);
}

function positive(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`--${name} must be a whole number, got ${value}`);
  return n;
}

async function main() {
  if (args.only !== undefined && !(PARTS as readonly string[]).includes(args.only)) {
    throw new Error(`--only must be one of ${PARTS.join(", ")}`);
  }
  const parts = new Set<Part>(args.only ? [args.only as Part] : PARTS);
  const locomoPath = datasetPath(args.dataset ?? args.locomo ?? "locomo");
  if (parts.has("locomo") && !existsSync(locomoPath)) {
    log(
      `quality part skipped: no dataset at ${locomoPath} (pass --dataset locomo, realtalk or the path of a file in LoCoMo's layout)`,
    );
    parts.delete("locomo");
  }
  if (parts.has("distance") && !process.env.DATABASE_URL) {
    log(
      "distance part skipped: it needs DATABASE_URL pointing at a PostgreSQL server (POOLER=1 bash scripts/ci-postgres.sh starts one)",
    );
    parts.delete("distance");
  }
  if (parts.size === 0) return;
  if (args.embedder !== "bge" && args.embedder !== "local") {
    throw new Error("--embedder must be bge (production's model, the default) or local (lexical)");
  }
  const useMem0 = !args["skip-mem0"];
  const out = args.out ?? "bench-results";

  let embed: EmbedServer | undefined;
  let stack: Stack | undefined;
  let embedding: BenchEmbedding | undefined;
  const distanceCleanups = new Cleanups();
  const stop = async () => {
    await distanceCleanups.runAll();
    await stack?.stop();
    await embed?.close();
    await embedding?.stop();
    cleanupMem0();
  };
  process.on("SIGINT", () => void stop().then(() => process.exit(130)));
  try {
    const tables: Table[] = [];
    const needsEmbedder = ["locomo", "updates", "speed", "neighbours", "concurrency", "paid"];
    if (needsEmbedder.some((p) => parts.has(p as Part))) {
      embedding = await startBenchEmbedding(args.embedder as EmbedderKind);
      if (useMem0 && !(parts.size === 1 && parts.has("paid"))) {
        embed = await startEmbedServer(embedding.embedder);
        log(`embedding endpoint for Mem0 on ${embed.baseUrl} (model ${embed.model})`);
      }
    }
    if (
      embedding &&
      ["locomo", "updates", "speed", "neighbours", "concurrency"].some((p) => parts.has(p as Part))
    ) {
      stack = await startStack(positive("port", args.port), {
        serverUrl: process.env.DATABASE_URL,
        vars: embedding.vars,
      });
      const kind = stack.database.kind;

      // LoCoMo first: its wallets then share the tables only with each other.
      if (parts.has("locomo")) {
        const started = Date.now();
        const result = await runLocomo({
          path: locomoPath,
          categories: args.categories,
          heldOut: args["hold-out"]
            ?.split(",")
            .map((id) => id.trim())
            .filter(Boolean),
          baseUrl: stack.baseUrl,
          embed,
          embedding,
          useMem0,
        });
        result.json.database = stack.dbLabel;
        result.json.command = commandLine();
        const dataset = String(result.json.dataset_name).toLowerCase();
        const file = writeJson(out, `${dataset}-${kind}.json`, result.json);
        log(
          `${result.json.dataset_name} done in ${((Date.now() - started) / 1000).toFixed(0)} s; JSON: ${file}`,
        );
        tables.push(...result.tables);
      }
      // Knowledge updates (#45's "before"): a small wallet per item.
      if (parts.has("updates")) {
        const started = Date.now();
        const result = await runUpdates({
          baseUrl: stack.baseUrl,
          embed,
          embedding,
          useMem0,
          items: args["updates-items"]
            ? positive("updates-items", args["updates-items"])
            : undefined,
        });
        const json = { ...result.json, database: stack.dbLabel, command: commandLine() };
        const file = writeJson(out, `updates-${kind}.json`, json);
        log(`updates done in ${((Date.now() - started) / 1000).toFixed(0)} s; JSON: ${file}`);
        tables.push(...result.tables);
      }
      if (parts.has("speed")) {
        const started = Date.now();
        const result = await runSpeed(stack, {
          sizes: (args.sizes ?? "")
            .split(",")
            .map(Number)
            .filter((n) => n > 0),
          queries: positive("queries", args.queries),
          ...otherWallets(kind),
          apiSeedMax: positive("api-seed-max", args["api-seed-max"]),
          mem0MaxSize: positive("mem0-max-size", args["mem0-max-size"]),
          useMem0,
          embed,
          embedding,
        });
        result.json.command = commandLine();
        const file = writeJson(out, `speed-${kind}.json`, result.json);
        log(`speed done in ${((Date.now() - started) / 1000).toFixed(0)} s; JSON: ${file}`);
        tables.push(...result.tables);
      }
      if (parts.has("neighbours")) {
        const started = Date.now();
        const result = await runNeighbours(stack, {
          size: positive("neighbour-size", args["neighbour-size"]),
        });
        const file = writeJson(out, `neighbours-${kind}.json`, {
          ...result.json,
          embedder: embedding.label,
          command: commandLine(),
        });
        log(`neighbours done in ${((Date.now() - started) / 1000).toFixed(0)} s; JSON: ${file}`);
        tables.push(...result.tables);
      }
      // Last, with stacks of its own: the embedded default and, with DATABASE_URL, the server.
      if (parts.has("concurrency")) {
        await stack.stop();
        const started = Date.now();
        const result = await runConcurrency({
          port: positive("port", args.port),
          wallets: positive("wallets", args.wallets),
          rounds: positive("rounds", args.rounds ?? "5"),
        });
        const file = writeJson(out, "concurrency.json", { ...result.json, command: commandLine() });
        log(`concurrency done in ${((Date.now() - started) / 1000).toFixed(0)} s; JSON: ${file}`);
        tables.push(...result.tables);
      }
      await stack.stop();
    }
    // With a stack and a chain of its own per block time: metering on, payments on the chain.
    if (embedding && parts.has("paid")) {
      const started = Date.now();
      const runs = [];
      for (const blockTime of (args["block-time"] ?? "0").split(",").map(Number)) {
        const result = await runPaid({
          port: positive("port", args.port),
          calls: positive("paid-calls", args["paid-calls"]),
          concurrent: positive("concurrent", args.concurrent),
          attack: positive("attack", args.attack),
          mixedRounds: positive("mixed-rounds", args["mixed-rounds"]),
          blockTime: positive("block-time", String(blockTime)),
          vars: embedding.vars,
        });
        runs.push(result.json);
        tables.push(...result.tables);
      }
      const file = writeJson(out, "paid.json", {
        runs,
        embedder: embedding.label,
        machine: machine(),
        command: commandLine(),
      });
      log(`paid done in ${((Date.now() - started) / 1000).toFixed(0)} s; JSON: ${file}`);
    }
    // With a Worker, PgBouncers and a scratch database of its own, after the others' are gone.
    if (parts.has("distance")) {
      const started = Date.now();
      const result = await runDistance({
        serverUrl: process.env.DATABASE_URL ?? "",
        port: positive("port", args.port),
        delayMs: positive("delay", args.delay),
        rounds: positive("rounds", args.rounds ?? "20"),
        cleanups: distanceCleanups,
      });
      const file = writeJson(out, "distance.json", { ...result.json, command: commandLine() });
      log(`distance done in ${((Date.now() - started) / 1000).toFixed(0)} s; JSON: ${file}`);
      tables.push(...result.tables);
    }
    for (const table of tables) printTable(table);
  } finally {
    await stop();
  }
}

/**
 * The other wallets' memories: a million on a PostgreSQL server (100,000 of them in wallets
 * of 10,000), 100,000 on the embedded database (PGlite is 32-bit WebAssembly: a million rows
 * of ~2 KB do not fit its memory).
 */
function otherWallets(kind: "embedded" | "server"): { otherRows: number; otherLargeRows: number } {
  const otherRows = positive(
    "other-rows",
    args["other-rows"] ?? (kind === "server" ? "1000000" : "100000"),
  );
  const large = positive(
    "other-large-rows",
    args["other-large-rows"] ?? String(Math.min(100_000, Math.floor(otherRows / 10))),
  );
  return { otherRows, otherLargeRows: Math.min(large, otherRows) };
}

function commandLine(): string {
  const env = process.env.DATABASE_URL ? "DATABASE_URL=… " : "";
  const rest = process.argv.slice(2);
  return `${env}npm run bench${rest.length ? ` -- ${rest.join(" ")}` : ""}`;
}

main().catch((err) => {
  console.error("[bench] failed:", err instanceof Error ? err.message : err);
  process.exit(1);
});
