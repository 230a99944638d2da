/**
 * The paid part: x402 payments settled on a local chain (anvil, the test USDC, the Worker's
 * in-process facilitator; local/chain/), with metering on, as a paying agent sees them, on
 * the run's database (the embedded one, or DATABASE_URL's server as for the other parts):
 *
 * - a paid store and a paid recall, one after another: the paid request's latency (the 402
 *   that precedes it in a real client is a free answer, not timed);
 * - one funded payer's `--concurrent` paid stores at once: how many succeed, and the wall time;
 * - the over-balance attack: a payer holding the price of one store sends `--attack` paid
 *   stores at once, each with its own valid payment. Served, settled (the payer's balance)
 *   and written (its memories) must all be 1.
 * - the mixed load (issue #44): `--mixed-rounds` rounds of 6 payments at once over one payer's
 *   balance (for 1) beside 4 from a funded payer, all at the same time, EIP-3009 and Permit2
 *   in turn. For each payer, served + credited must equal paid; it reports the slowest answer,
 *   the answers past the settlement bound, and the facilitator's reverted transactions (gas
 *   spent on refusals).
 *
 * `--block-time S` mines a block every S seconds once the chain is set up, as Base does (2 s),
 * instead of one block per transaction. Settlement waits for its block.
 */
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import { type Address, createTestClient, http } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { localChainVars, localViemChain } from "../local/chain/details";
import { type LocalChain, startLocalChain } from "../local/chain/start";
import { localToken } from "../local/chain/token";
import { fmt, log, type Table } from "./lib/report";
import { type LatencySummary, summary } from "./lib/stats";
import { startStack } from "./systems/stack";

export interface PaidOptions {
  port: number;
  /** Paid calls timed per operation (at most 99: a wallet may send 100 requests a minute). */
  calls: number;
  /** Paid stores one payer sends at once. */
  concurrent: number;
  /** Payments sent at once by a payer that can afford one. */
  attack: number;
  /** Seconds between blocks after set-up; 0 mines each transaction at once. */
  blockTime: number;
  /** Rounds of the mixed load. */
  mixedRounds: number;
  vars: Record<string, string>;
  /** A PostgreSQL server (DATABASE_URL), as for the other parts; none: the embedded database. */
  serverUrl?: string;
}

interface Result {
  database: string;
  block_time_s: number;
  store: LatencySummary;
  recall: LatencySummary;
  concurrent: { calls: number; succeeded: number; seconds: number; statuses: number[] };
  attack: { sent: number; served: number; settled: number; written: number; statuses: number[] };
  mixed: MixedResult;
}

interface MixedResult {
  rounds: number;
  calls: number;
  served: number;
  refused: number;
  credited: number;
  paid: number;
  /** Payers whose served + credited differs from what left their balance. */
  mismatched_payers: number;
  max_ms: number;
  over_bound: number;
  reverted_transactions: number;
}

/** The settlement bound of a paid call (worker/middleware/payment.ts) plus the store itself. */
const ANSWER_BOUND_MS = 15_000;

const STORE_PRICE = 5000n;

export async function runPaid(opts: PaidOptions): Promise<{ json: Result; tables: Table[] }> {
  const chain = await startLocalChain({ log });
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  try {
    stack = await startStack(opts.port, {
      serverUrl: opts.serverUrl,
      vars: { ...opts.vars, METERING: "on", ...localChainVars(chain) },
    });
    const paid = new PaidClient(stack.baseUrl, chain);
    if (opts.blockTime > 0) await paid.mineEvery(opts.blockTime);

    // A payer of its own for each measurement: a wallet may send 100 requests a minute.
    const newPayer = async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      await paid.mint(account.address, 1_000_000_000n);
      return account;
    };
    // The first call warms the Worker's facilitator (its start-up is not a paid call's cost).
    await paid.call(await newPayer(), "POST", "/v1/recall", { query: "warm up" });
    log(`paid: ${opts.calls} paid stores, then ${opts.calls} paid recalls`);
    const store = await paid.timed(await newPayer(), opts.calls, (i) => [
      "/v1/store",
      { content: `paid ${i}` },
    ]);
    const recall = await paid.timed(await newPayer(), opts.calls, () => [
      "/v1/recall",
      { query: "paid" },
    ]);

    log(`paid: ${opts.concurrent} paid stores at once from one funded payer`);
    const funded = await newPayer();
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: opts.concurrent }, (_, i) =>
        paid.call(funded, "POST", "/v1/store", { content: `at once ${i}` }).then((r) => r.status),
      ),
    );
    const seconds = (performance.now() - started) / 1000;

    log(`paid: ${opts.attack} payments at once from a payer that can afford one`);
    const attacker = privateKeyToAccount(generatePrivateKey());
    await paid.mint(attacker.address, STORE_PRICE);
    const attackStatuses = await Promise.all(
      Array.from({ length: opts.attack }, (_, i) =>
        paid.call(attacker, "POST", "/v1/store", { content: `over the balance ${i}` }),
      ),
    ).then((answers) => answers.map((a) => a.status));
    const left = await paid.balanceOf(attacker.address);
    const written = await paid.count(attacker);

    log(`paid: mixed load, ${opts.mixedRounds} rounds of 6 over a balance + 4 funded at once`);
    const mixed = await mixedLoad(paid, opts.mixedRounds);

    const json: Result = {
      database: stack.dbLabel,
      block_time_s: opts.blockTime,
      store,
      recall,
      concurrent: {
        calls: opts.concurrent,
        succeeded: statuses.filter((s) => s < 300).length,
        seconds: Math.round(seconds * 100) / 100,
        statuses,
      },
      attack: {
        sent: opts.attack,
        served: attackStatuses.filter((s) => s < 300).length,
        settled: Number((STORE_PRICE - left) / STORE_PRICE),
        written,
        statuses: attackStatuses,
      },
      mixed,
    };
    return { json, tables: [table(json)] };
  } finally {
    await stack?.stop();
    await chain.stop();
  }
}

function table(r: Result): Table {
  const mined =
    r.block_time_s > 0 ? `a block every ${r.block_time_s} s` : "a block per transaction";
  return {
    title: `\nPaid calls on the local chain (${mined}, ${r.database}; ms)`,
    header: ["", "p50", "p95", "n / result"],
    rows: [
      ["paid store", fmt(r.store.p50), fmt(r.store.p95), String(r.store.n)],
      ["paid recall", fmt(r.recall.p50), fmt(r.recall.p95), String(r.recall.n)],
      [
        `${r.concurrent.calls} paid stores at once, one payer`,
        "",
        "",
        `${r.concurrent.succeeded} succeeded in ${fmt(r.concurrent.seconds, 2)} s`,
      ],
      [
        `${r.attack.sent} payments at once, balance for 1`,
        "",
        "",
        `served ${r.attack.served}, settled ${r.attack.settled}, written ${r.attack.written}`,
      ],
      [
        `mixed load, ${r.mixed.rounds} rounds (${r.mixed.calls} calls)`,
        "",
        fmt(r.mixed.max_ms),
        `served ${r.mixed.served} + credited ${r.mixed.credited} = paid ${r.mixed.paid}; ${r.mixed.mismatched_payers} payers off; ${r.mixed.over_bound} over ${ANSWER_BOUND_MS / 1000} s; ${r.mixed.reverted_transactions} reverted`,
      ],
    ],
    notes: [
      "Each paid call carries a fresh EIP-3009 payment signed before the clock starts; the latency is the paid request's.",
      "Mixed load: its p95 column is the slowest answer of the run; reverted = the facilitator's transactions that reverted (gas spent on refusals).",
    ],
  };
}

/** How a payer pays: EIP-3009 (the 402's first way) or Permit2. */
type PayBy = "eip3009" | "permit2";

/** The mixed load (module comment), `rounds` times. */
async function mixedLoad(paid: PaidClient, rounds: number): Promise<MixedResult> {
  const startBlock = await paid.blockNumber();
  const result: MixedResult = {
    rounds,
    calls: 0,
    served: 0,
    refused: 0,
    credited: 0,
    paid: 0,
    mismatched_payers: 0,
    max_ms: 0,
    over_bound: 0,
    reverted_transactions: 0,
  };
  for (let round = 0; round < rounds; round++) {
    const by: PayBy = round % 2 === 0 ? "eip3009" : "permit2";
    const over = privateKeyToAccount(generatePrivateKey());
    const funded = privateKeyToAccount(generatePrivateKey());
    // One minter: its transactions one after another.
    await paid.mint(over.address, STORE_PRICE);
    await paid.mint(funded.address, 1_000_000n);
    if (by === "permit2")
      await Promise.all([paid.approvePermit2(over), paid.approvePermit2(funded)]);
    const payers: Array<[PrivateKeyAccount, number]> = [
      [over, 6],
      [funded, 4],
    ];
    const before = await Promise.all(payers.map(([a]) => paid.balanceOf(a.address)));
    const answers = await Promise.all(
      payers.map(([account, n]) =>
        Promise.all(
          Array.from({ length: n }, (_, i) =>
            paid.call(account, "POST", "/v1/store", { content: `mixed ${round} ${i}` }, by),
          ),
        ),
      ),
    );
    const roundMax = Math.max(...answers.flat().map((a) => a.ms));
    log(
      `paid: mixed round ${round + 1}/${rounds} (${by}): ${answers.flat().filter((a) => a.status < 300).length} served, slowest ${Math.round(roundMax)} ms`,
    );
    for (const [k, [account]] of payers.entries()) {
      const sent = answers[k] ?? [];
      const spent = (before[k] ?? 0n) - (await paid.balanceOf(account.address));
      const served = sent.filter((a) => a.status < 300).length;
      const credited = sent.filter((a) => a.credited).length;
      const paidCalls = Number(spent / STORE_PRICE);
      result.calls += sent.length;
      result.served += served;
      result.refused += sent.filter((a) => a.status === 402).length;
      result.credited += credited;
      result.paid += paidCalls;
      if (served + credited !== paidCalls) result.mismatched_payers++;
      for (const a of sent) {
        result.max_ms = Math.max(result.max_ms, Math.round(a.ms));
        if (a.ms > ANSWER_BOUND_MS) result.over_bound++;
      }
    }
  }
  result.reverted_transactions = await paid.revertedSince(startBlock);
  return result;
}

/** An x402 client of the service on the local chain: signs payments and sends them. */
class PaidClient {
  private readonly token;
  private listing: Map<string, PaymentRequirements[]> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly chain: LocalChain,
  ) {
    this.token = localToken(chain);
  }

  /** Interval mining from now on (the set-up above ran with a block per transaction). */
  async mineEvery(seconds: number) {
    const test = createTestClient({
      chain: localViemChain(this.chain.rpcUrl, this.chain.chainId),
      mode: "anvil",
      transport: http(this.chain.rpcUrl),
    });
    await test.setAutomine(false);
    await test.setIntervalMining({ interval: seconds });
  }

  mint = (to: Address, amount: bigint) => this.token.mint(to, amount);
  approvePermit2 = (account: PrivateKeyAccount) => this.token.approvePermit2(account);
  balanceOf = (address: Address) => this.token.balanceOf(address);
  blockNumber = () => this.token.reader.getBlockNumber();
  revertedSince = (fromBlock: bigint) => this.token.revertedSince(fromBlock);

  /** The requirements of a paid path, as GET /.well-known/x402 announces them. */
  private async requirementsOf(path: string): Promise<PaymentRequirements[]> {
    if (!this.listing) {
      const res = await fetch(`${this.baseUrl}/.well-known/x402`);
      const body = (await res.json()) as {
        items: Array<{ resource: string; accepts: PaymentRequirements[] }>;
      };
      this.listing = new Map(body.items.map((i) => [new URL(i.resource).pathname, i.accepts]));
    }
    const accepts = this.listing.get(path);
    if (!accepts?.length) throw new Error(`no payment requirement listed for ${path}`);
    return accepts;
  }

  /** A payment of `account` for one call of `path`, signed now. */
  async payment(
    account: PrivateKeyAccount,
    path: string,
    by: PayBy = "eip3009",
  ): Promise<PaymentPayload> {
    const client = x402Client.fromConfig({
      policies:
        by === "permit2"
          ? [(_version, reqs) => reqs.filter((r) => r.extra?.assetTransferMethod === "permit2")]
          : [],
      schemes: [{ network: this.chain.network, client: new ExactEvmScheme(account) }],
      spendControls: { allowedAssets: [{ network: this.chain.network, asset: this.chain.asset }] },
    });
    const required: PaymentRequired = {
      x402Version: 2,
      resource: { url: `${this.baseUrl}${path}`, description: path, mimeType: "application/json" },
      accepts: await this.requirementsOf(path),
    };
    return client.createPaymentPayload(required);
  }

  /** One paid call: x-wallet-auth and a PAYMENT-SIGNATURE, both signed before it is timed. */
  async call(
    account: PrivateKeyAccount,
    method: string,
    path: string,
    body: unknown,
    by: PayBy = "eip3009",
  ) {
    const headers = {
      "content-type": "application/json",
      "x-wallet-auth": await walletAuth(account),
      "payment-signature": encodePaymentSignatureHeader(await this.payment(account, path, by)),
    };
    const started = performance.now();
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const credited = res.headers.has("x-payment-credited");
    return { status: res.status, ms: performance.now() - started, text, credited };
  }

  /** `n` paid calls one after another; any answer but 2xx stops the run. */
  async timed(
    account: PrivateKeyAccount,
    n: number,
    request: (i: number) => [string, unknown],
  ): Promise<LatencySummary> {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const [path, body] = request(i);
      const answer = await this.call(account, "POST", path, body);
      if (answer.status >= 300) {
        throw new Error(`paid ${path} → ${answer.status} ${answer.text.slice(0, 300)}`);
      }
      ms.push(answer.ms);
    }
    return summary(ms);
  }

  /** How many memories `account` holds (a free call). */
  async count(account: PrivateKeyAccount): Promise<number> {
    const res = await fetch(`${this.baseUrl}/v1/memories/count`, {
      headers: { "x-wallet-auth": await walletAuth(account) },
    });
    return ((await res.json()) as { count: number }).count;
  }
}

async function walletAuth(account: PrivateKeyAccount): Promise<string> {
  const ts = Math.floor(Date.now() / 1000);
  return `${account.address}:${ts}:${await account.signMessage({ message: `service-auth:${ts}` })}`;
}
