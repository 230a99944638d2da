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
 * - changes: how soon a reader waiting on GET /v1/changes hears of a store or a PATCH, and
 *   those writes' latencies meanwhile (Mem0 has no feed).
 * - distance (needs DATABASE_URL): each operation's latency with the database `--delay` ms away
 *   (a delay proxy, PgBouncers and wrangler of its own), and its Worker↔database round trips.
 * - paid: x402 payments settled on a local chain (paid.ts): a paid store's and a paid recall's
 *   latency, one payer's concurrent paid calls, N payments at once over the payer's balance,
 *   and the mixed load of payments over a balance beside a funded payer (--mixed-rounds);
 *   once per `--block-time` (0: a block per transaction; 2: Base's block time).
 *
 * Prints one table per part and writes bench-results/{locomo|realtalk,updates,speed,changes}-<embedded|server>.json,
 * neighbours-<embedded|server>.json, concurrency.json, distance.json and paid.json, then one
 * line a part: its JSON, why it was skipped, or why it failed.
 *
 * `--smoke` runs every part at its smallest size (bench/options.ts: SMOKE) in seconds, to show
 * that each still runs to the end and writes its JSON; a part that fails is reported and the
 * next one runs, and the exit code is 1. scripts/bench-smoke.sh runs it on each database.
 *
 * How to run it: USAGE below, or `npm run bench -- --help`.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ROOT } from "../local/service";
import { runChanges } from "./changes";
import { runConcurrency } from "./concurrency";
import { Cleanups, runDistance } from "./distance/index";
import { log, machine, printTable, type Table, writeJson } from "./lib/report";
import { runLocomo } from "./locomo/index";
import { runNeighbours } from "./neighbours";
import { type BenchArgs, PARTS, type Part, resolveArgs } from "./options";
import { runPaid } from "./paid";
import { runSpeed } from "./speed/index";
import { type EmbedServer, startEmbedServer } from "./systems/embed-server";
import { type BenchEmbedding, type EmbedderKind, startBenchEmbedding } from "./systems/embedding";
import { cleanupMem0 } from "./systems/mem0";
import { type Stack, startStack } from "./systems/stack";
import { runUpdates } from "./updates/index";

const USAGE = `npm run bench [-- options]: the service beside Mem0 on this machine, one table per part
on stdout and JSON in bench-results/. Parts: locomo, updates, speed, neighbours, changes, concurrency, paid, and
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
  npm run bench -- --only changes --changes-rounds 200  # writes told to a waiting feed reader
  npm run bench -- --only paid --block-time 0,2         # x402 on a local chain, Base's 2 s blocks
  DATABASE_URL=postgres://… npm run bench             # a real PostgreSQL server
  DATABASE_URL=postgres://… npm run bench -- --only distance --delay 20 --rounds 20
  npm run bench -- --smoke                            # every part tiny, in seconds (CI:
                                                      # scripts/bench-smoke.sh); figures mean nothing
  npm run bench -- --only locomo --conversations 1 --questions 20   # a slice of the dataset`;

/** The command line, or the usage and exit: --help, or an option this bench does not have. */
function parseCommandLine(): BenchArgs {
  try {
    const parsed = resolveArgs(process.argv.slice(2));
    if (parsed.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return parsed;
  } catch (err) {
    console.error(`npm run bench: ${err instanceof Error ? err.message : err}\n\n${USAGE}`);
    process.exit(2);
  }
}

const args = parseCommandLine();

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

/** What became of one part: the JSON it wrote, or why it wrote none. */
interface Outcome {
  part: Part;
  seconds: number;
  file?: string;
  skipped?: string;
  error?: string;
}

async function main() {
  if (args.only !== undefined && !(PARTS as readonly string[]).includes(args.only)) {
    throw new Error(`--only must be one of ${PARTS.join(", ")}`);
  }
  const parts = new Set<Part>(args.only ? [args.only as Part] : PARTS);
  const outcomes: Outcome[] = [];
  const locomoPath = datasetPath(args.dataset ?? args.locomo ?? "locomo");
  if (parts.has("locomo") && !existsSync(locomoPath)) {
    const why = `no dataset at ${locomoPath} (pass --dataset locomo, realtalk or the path of a file in LoCoMo's layout)`;
    // A smoke run is there to show that every part still runs: a part it cannot run fails it.
    if (args.smoke) outcomes.push({ part: "locomo", seconds: 0, error: why });
    else log(`quality part skipped: ${why}`);
    parts.delete("locomo");
  }
  if (parts.has("distance") && !process.env.DATABASE_URL) {
    const why = "it needs DATABASE_URL pointing at a PostgreSQL server";
    log(`distance part skipped: ${why} (POOLER=1 bash scripts/ci-postgres.sh starts one)`);
    outcomes.push({ part: "distance", seconds: 0, skipped: why });
    parts.delete("distance");
  }
  if (parts.size === 0) return outcomes;
  if (args.embedder !== "bge" && args.embedder !== "local") {
    throw new Error("--embedder must be bge (production's model, the default) or local (lexical)");
  }
  const useMem0 = !args["skip-mem0"];
  const out = args.out ?? `${ROOT}bench-results`;
  if (args.smoke) log("smoke run: every part at its smallest size (bench/options.ts: SMOKE)");

  /**
   * Runs one part, which returns the JSON file it wrote. A failure ends the run, but with
   * --smoke it is recorded and the next part runs: the run then ends with exit code 1.
   */
  const runPart = async (part: Part, body: () => Promise<string>) => {
    const started = Date.now();
    const seconds = () => Math.round((Date.now() - started) / 100) / 10;
    try {
      const file = await body();
      outcomes.push({ part, seconds: seconds(), file });
      log(`${part} done in ${seconds().toFixed(0)} s; JSON: ${file}`);
    } catch (err) {
      if (!args.smoke) throw err;
      const error = oneLine(err);
      outcomes.push({ part, seconds: seconds(), error });
      log(
        `${part} FAILED after ${seconds().toFixed(0)} s: ${err instanceof Error ? err.stack : err}`,
      );
    }
  };

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
    const needsEmbedder = [
      "locomo",
      "updates",
      "speed",
      "neighbours",
      "changes",
      "concurrency",
      "paid",
    ];
    if (needsEmbedder.some((p) => parts.has(p as Part))) {
      embedding = await startBenchEmbedding(args.embedder as EmbedderKind);
      if (useMem0 && !(parts.size === 1 && parts.has("paid"))) {
        embed = await startEmbedServer(embedding.embedder);
        log(`embedding endpoint for Mem0 on ${embed.baseUrl} (model ${embed.model})`);
      }
    }
    if (
      embedding &&
      ["locomo", "updates", "speed", "neighbours", "changes", "concurrency"].some((p) =>
        parts.has(p as Part),
      )
    ) {
      const running = await startStack(positive("port", args.port), {
        serverUrl: process.env.DATABASE_URL,
        vars: embedding.vars,
      });
      stack = running;
      const kind = running.database.kind;
      const used = embedding;

      // LoCoMo first: its wallets then share the tables only with each other.
      if (parts.has("locomo")) {
        await runPart("locomo", async () => {
          const result = await runLocomo({
            path: locomoPath,
            categories: args.categories,
            heldOut: args["hold-out"]
              ?.split(",")
              .map((id) => id.trim())
              .filter(Boolean),
            slice: {
              conversations: optional("conversations", args.conversations),
              questions: optional("questions", args.questions),
            },
            baseUrl: running.baseUrl,
            embed,
            embedding: used,
            useMem0,
          });
          result.json.database = running.dbLabel;
          result.json.command = commandLine();
          const dataset = String(result.json.dataset_name).toLowerCase();
          tables.push(...result.tables);
          return writeJson(out, `${dataset}-${kind}.json`, result.json);
        });
      }
      // Knowledge updates (#45's "before"): a small wallet per item.
      if (parts.has("updates")) {
        await runPart("updates", async () => {
          const result = await runUpdates({
            baseUrl: running.baseUrl,
            embed,
            embedding: used,
            useMem0,
            items: optional("updates-items", args["updates-items"]),
          });
          tables.push(...result.tables);
          const json = { ...result.json, database: running.dbLabel, command: commandLine() };
          return writeJson(out, `updates-${kind}.json`, json);
        });
      }
      if (parts.has("speed")) {
        await runPart("speed", async () => {
          const result = await runSpeed(running, {
            sizes: args.sizes
              .split(",")
              .map(Number)
              .filter((n) => n > 0),
            queries: positive("queries", args.queries),
            calls: positive("calls", args.calls),
            ...otherWallets(kind),
            apiSeedMax: positive("api-seed-max", args["api-seed-max"]),
            mem0MaxSize: positive("mem0-max-size", args["mem0-max-size"]),
            useMem0,
            embed,
            embedding: used,
          });
          result.json.command = commandLine();
          tables.push(...result.tables);
          return writeJson(out, `speed-${kind}.json`, result.json);
        });
      }
      if (parts.has("neighbours")) {
        await runPart("neighbours", async () => {
          const result = await runNeighbours(running, {
            size: positive("neighbour-size", args["neighbour-size"]),
          });
          tables.push(...result.tables);
          return writeJson(out, `neighbours-${kind}.json`, {
            ...result.json,
            embedder: used.label,
            command: commandLine(),
          });
        });
      }
      if (parts.has("changes")) {
        await runPart("changes", async () => {
          const result = await runChanges({
            baseUrl: running.baseUrl,
            rounds: positive("changes-rounds", args["changes-rounds"]),
          });
          tables.push(...result.tables);
          const json = { ...result.json, database: running.dbLabel, command: commandLine() };
          return writeJson(out, `changes-${kind}.json`, json);
        });
      }
      // Last, with stacks of its own: the embedded default and, with DATABASE_URL, the server.
      if (parts.has("concurrency")) {
        await running.stop();
        await runPart("concurrency", async () => {
          const result = await runConcurrency({
            port: positive("port", args.port),
            wallets: positive("wallets", args.wallets),
            rounds: positive("rounds", args.rounds ?? "5"),
          });
          tables.push(...result.tables);
          return writeJson(out, "concurrency.json", { ...result.json, command: commandLine() });
        });
      }
      await running.stop();
    }
    // With a stack and a chain of its own per block time: metering on, payments on the chain.
    if (embedding && parts.has("paid")) {
      const { vars, label } = embedding;
      await runPart("paid", async () => {
        const runs = [];
        for (const blockTime of args["block-time"].split(",").map(Number)) {
          const result = await runPaid({
            port: positive("port", args.port),
            calls: positive("paid-calls", args["paid-calls"]),
            concurrent: positive("concurrent", args.concurrent),
            attack: positive("attack", args.attack),
            mixedRounds: positive("mixed-rounds", args["mixed-rounds"]),
            blockTime: positive("block-time", String(blockTime)),
            vars,
            serverUrl: process.env.DATABASE_URL,
          });
          runs.push(result.json);
          tables.push(...result.tables);
        }
        return writeJson(out, "paid.json", {
          runs,
          embedder: label,
          machine: machine(),
          command: commandLine(),
        });
      });
    }
    // With a Worker, PgBouncers and a scratch database of its own, after the others' are gone.
    if (parts.has("distance")) {
      await runPart("distance", async () => {
        const result = await runDistance({
          serverUrl: process.env.DATABASE_URL ?? "",
          port: positive("port", args.port),
          delayMs: positive("delay", args.delay),
          rounds: positive("rounds", args.rounds ?? "20"),
          cleanups: distanceCleanups,
        });
        tables.push(...result.tables);
        return writeJson(out, "distance.json", { ...result.json, command: commandLine() });
      });
    }
    for (const table of tables) printTable(table);
  } finally {
    await stop();
  }
  return outcomes;
}

/** An error on one line: its message's first line, and its cause's (a failed query's reason). */
function oneLine(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const first = (text: string) => (text.trim().split("\n")[0] ?? "").trim();
  const cause = err.cause instanceof Error ? ` (${first(err.cause.message)})` : "";
  return `${first(err.message)}${cause}`;
}

/** A whole number option that may be left out (undefined: the whole of what it limits). */
function optional(name: string, value: string | undefined): number | undefined {
  return value === undefined ? undefined : positive(name, value);
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

/**
 * One line a part at the end (what scripts/bench-smoke.sh reads): "[bench] part <name>: ok in
 * <s> s, <file>", "skipped: <why>" or "FAILED in <s> s: <why>". Exit code 1 when one failed.
 */
main()
  .then((outcomes) => {
    for (const o of outcomes) {
      const status = o.file
        ? `ok in ${o.seconds} s, ${o.file}`
        : o.skipped
          ? `skipped: ${o.skipped}`
          : `FAILED in ${o.seconds} s: ${o.error}`;
      log(`part ${o.part}: ${status}`);
    }
    if (outcomes.some((o) => o.error !== undefined)) process.exit(1);
  })
  .catch((err) => {
    console.error("[bench] failed:", err instanceof Error ? err.message : err);
    process.exit(1);
  });
