/**
 * The bench's command line (bench/main.ts): its parts, its options, their defaults, and the
 * smaller defaults of `--smoke`. Apart from main.ts, which runs the bench as it is imported,
 * so that a test can read what a command line resolves to (test/bench/options.test.ts).
 */
import { parseArgs } from "node:util";

export const PARTS = [
  "locomo",
  "updates",
  "speed",
  "neighbours",
  "concurrency",
  "changes",
  "paid",
  "distance",
] as const;
export type Part = (typeof PARTS)[number];

/** An option that takes a value (parseArgs gives it as a string), and one that does not. */
const VALUE = { type: "string" } as const;
const FLAG = { type: "boolean" } as const;

/** No defaults here: an option the command line does not give is undefined (resolveArgs). */
export const OPTIONS = {
  only: VALUE,
  embedder: VALUE,
  // The quality part's dataset: locomo, realtalk (../shared's dev splits) or a file's path;
  // --locomo is its older name. --categories names another dataset's categories.
  dataset: VALUE,
  locomo: VALUE,
  categories: VALUE,
  "hold-out": VALUE,
  // A slice of the dataset: its first N conversations, the first N scored questions of each.
  conversations: VALUE,
  questions: VALUE,
  "skip-mem0": FLAG,
  // The knowledge-update part: N updates and controls in proportion (bench/updates/).
  "updates-items": VALUE,
  // The change-feed part: writes told to a waiting reader (bench/changes.ts).
  "changes-rounds": VALUE,
  sizes: VALUE,
  queries: VALUE,
  // The speed part's requests timed per operation: single stores in a new wallet, and search
  // and list in the largest wallet; half as many single stores and a batch store of five
  // times as many memories there.
  calls: VALUE,
  "other-rows": VALUE,
  "other-large-rows": VALUE,
  "api-seed-max": VALUE,
  "mem0-max-size": VALUE,
  "neighbour-size": VALUE,
  wallets: VALUE,
  // Rounds per wallet for concurrency (default 5), requests per operation for distance (20).
  rounds: VALUE,
  delay: VALUE,
  // The paid part: paid calls timed per operation, one payer's calls at once, payments at once
  // over the balance, and the chain's seconds between blocks (one run each).
  "paid-calls": VALUE,
  concurrent: VALUE,
  attack: VALUE,
  "mixed-rounds": VALUE,
  "block-time": VALUE,
  port: VALUE,
  out: VALUE,
  smoke: FLAG,
  help: { type: "boolean", short: "h" },
} as const;

type Name = keyof typeof OPTIONS;
/** The options as parseArgs gives them. */
export type Given = {
  [K in Name]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string;
};

/** What a full run measures (docs/benchmarks.md). */
export const DEFAULTS = {
  embedder: "bge",
  "skip-mem0": false,
  sizes: "1000,10000,100000",
  queries: "200",
  calls: "200",
  "api-seed-max": "10000",
  "mem0-max-size": "10000",
  "neighbour-size": "10000",
  wallets: "20",
  "changes-rounds": "100",
  delay: "20",
  "paid-calls": "20",
  concurrent: "10",
  attack: "6",
  "mixed-rounds": "20",
  "block-time": "0,2",
  port: "8788",
  smoke: false,
  help: false,
} satisfies Given;

/**
 * `--smoke`: every part at the smallest size that still runs each of its paths, in seconds
 * rather than an hour, so that a schema or API change that breaks a part fails CI
 * (scripts/bench-smoke.sh). The figures at these sizes mean nothing. Options given on the
 * command line win over these.
 *
 * - locomo: one conversation (all its turns), its first 5 questions; Mem0 included.
 * - speed: other wallets' 1,000 rows (the INSERT … SELECT of seed.ts), a wallet of 50 through
 *   the API and one of 2,001 through the data layer: past EXACT_SCAN_MAX (2,000), so recall
 *   goes through the HNSW graph and the vector agreement and plan are measured; Mem0 at 50.
 * - neighbours: 200 memories, two batches. concurrency: 2 wallets, 1 round (and distance
 *   1 request per operation, near and far, 5 ms apart).
 * - changes: 3 rounds of a store and a PATCH told to a waiting reader.
 * - paid: 2 paid stores and recalls, 2 at once, 2 over the balance, 2 mixed rounds (EIP-3009
 *   and Permit2), a block per transaction.
 */
export const SMOKE = {
  embedder: "local",
  conversations: "1",
  questions: "5",
  "updates-items": "5",
  "changes-rounds": "3",
  sizes: "50,2001",
  "api-seed-max": "50",
  queries: "5",
  calls: "5",
  "other-rows": "1000",
  "other-large-rows": "0",
  "mem0-max-size": "50",
  "neighbour-size": "200",
  wallets: "2",
  rounds: "1",
  delay: "5",
  "paid-calls": "2",
  concurrent: "2",
  attack: "2",
  "mixed-rounds": "2",
  "block-time": "0",
} satisfies Given;

export type BenchArgs = Given & { [K in keyof typeof DEFAULTS]: NonNullable<Given[K]> };

/**
 * The command line's options over --smoke's (when given) over the defaults. Throws on an
 * option the bench does not have.
 */
export function resolveArgs(argv: string[]): BenchArgs {
  const { values } = parseArgs({ args: argv, options: OPTIONS, strict: true });
  const given: Given = Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  );
  return { ...DEFAULTS, ...(given.smoke ? SMOKE : {}), ...given };
}
