/**
 * A remote x402 facilitator that fails, started by the global setup (in Node, outside workerd)
 * so that the payment path's answers to a broken facilitator can be tested. The first path
 * segment is the behaviour, so a Worker picks one by its X402_FACILITATOR_URL:
 *
 *   /down/…                  every request answers 503 (the facilitator is unreachable or broken)
 *   /settle-fails/…          GET /supported and POST /verify answer as a working facilitator
 *                            would (the payment is valid); POST /settle answers 500 mid-way,
 *                            having sent nothing, so whether the transfer happened is unknown
 *                            to the service
 *   /pending-after-settling/ POST /settle moves the money on the local chain (EIP-3009), then
 *                            answers `settlement_pending` with the transaction, as a remote
 *                            facilitator whose receipt wait timed out does
 *   /hang-after-sending/     POST /settle moves the money, then never answers (the service's
 *                            bound must end the wait)
 *   /pending-unsent/         POST /settle answers `settlement_pending` naming a transaction it
 *                            never sent: the outcome stays unknown until the test itself moves
 *                            the money (or never does)
 *   /refuses/                POST /settle answers 400 with a settle response that refuses the
 *                            payment and names no transaction (x402's client throws it as a
 *                            SettleError): a refusal, not an unknown outcome
 *
 * It sends from an anvil test account of its own (index 6), one transaction at a time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createWalletClient, getAddress, type Hex, http, parseAbi, parseSignature } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { TEST_MNEMONIC } from "../local/chain/details";
import { type LoopbackServer, listenOnLoopback, readBody, sendJson } from "../local/http-json";

/** Its base URL is without a behaviour, e.g. http://127.0.0.1:PORT. */
export type FakeFacilitator = LoopbackServer;

/** How long /hang-after-sending holds a settlement before it lets go (the service gives up first). */
const HANG_MS = 30_000;

export async function startFakeFacilitator(rpcUrl: string): Promise<FakeFacilitator> {
  const sender = await senderOn(rpcUrl);
  const server = createServer((req, res) => {
    handle(req, res, sender).catch((err: unknown) => sendJson(res, 500, { error: String(err) }));
  });
  return listenOnLoopback(server);
}

interface Eip3009Payment {
  accepted: { asset: string; network: string };
  payload: {
    authorization: {
      from: string;
      to: string;
      value: string;
      validAfter: string;
      validBefore: string;
      nonce: string;
    };
    signature: string;
  };
}

const transferWithAuthorization = parseAbi([
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
]);

/**
 * Submits an EIP-3009 payment on the chain, from the fake's own account (given ETH for gas
 * here: the chain funds only the accounts it uses), one at a time.
 */
async function senderOn(rpcUrl: string) {
  const account = mnemonicToAccount(TEST_MNEMONIC, { addressIndex: 6 });
  const client = createWalletClient({ account, transport: http(rpcUrl) });
  await client.request({
    method: "anvil_setBalance" as "eth_chainId",
    params: [account.address, "0x56bc75e2d63100000"] as never,
  });
  let turn: Promise<unknown> = Promise.resolve();
  return (payment: Eip3009Payment): Promise<Hex> => {
    const a = payment.payload.authorization;
    const sig = parseSignature(payment.payload.signature as Hex);
    const send = () =>
      client.writeContract({
        chain: null,
        address: getAddress(payment.accepted.asset),
        abi: transferWithAuthorization,
        functionName: "transferWithAuthorization",
        args: [
          getAddress(a.from),
          getAddress(a.to),
          BigInt(a.value),
          BigInt(a.validAfter),
          BigInt(a.validBefore),
          a.nonce as Hex,
          Number(sig.v ?? BigInt(27 + (sig.yParity ?? 0))),
          sig.r,
          sig.s,
        ],
      });
    const sent = turn.then(send, send);
    turn = sent.catch(() => {});
    return sent;
  };
}

type Send = Awaited<ReturnType<typeof senderOn>>;

/**
 * What was sent for each payment (by signature): asked again for one (x402's resource server
 * retries a pending settlement once), a facilitator reports the same transaction again.
 */
const sentFor = new Map<string, Promise<Hex>>();

function sendOnce(send: Send, payment: Eip3009Payment): Promise<Hex> {
  const key = payment.payload.signature;
  const sent = sentFor.get(key) ?? send(payment);
  sentFor.set(key, sent);
  return sent;
}

async function handle(req: IncomingMessage, res: ServerResponse, send: Send): Promise<void> {
  const [, mode, route] = new URL(req.url ?? "/", "http://fake").pathname.split("/");
  const body = req.method === "POST" ? JSON.parse((await readBody(req)) || "{}") : {};
  if (mode === "down") return sendJson(res, 503, { error: "facilitator down" });
  if (route === "supported") {
    const kind = (network: string) => ({ x402Version: 2, scheme: "exact", network });
    return sendJson(res, 200, {
      kinds: [kind("eip155:31337"), kind("eip155:8453")],
      extensions: [],
      signers: {},
    });
  }
  const payment = body?.paymentPayload as Eip3009Payment | undefined;
  const payer = payment?.payload?.authorization?.from;
  if (route === "verify") return sendJson(res, 200, { isValid: true, payer });
  if (route !== "settle" || !payment) return sendJson(res, 404, { error: `no route ${route}` });
  const network = payment.accepted.network;
  const pending = (transaction: string) =>
    sendJson(res, 200, {
      success: false,
      errorReason: "settlement_pending",
      errorMessage: "timed out waiting for the receipt",
      transaction,
      network,
      payer,
    });
  if (mode === "settle-fails") return sendJson(res, 500, { error: "settlement crashed" });
  if (mode === "refuses") {
    return sendJson(res, 400, {
      success: false,
      errorReason: "invalid_exact_evm_insufficient_balance",
      transaction: "",
      network,
      payer,
    });
  }
  if (mode === "pending-unsent") return pending(`0x${"ab".repeat(32)}`);
  const hash = await sendOnce(send, payment);
  if (mode === "pending-after-settling") return pending(hash);
  if (mode === "hang-after-sending") {
    await new Promise((resolve) => setTimeout(resolve, HANG_MS));
    return sendJson(res, 504, { error: "gave up" });
  }
  sendJson(res, 404, { error: `no mode ${mode}` });
}
