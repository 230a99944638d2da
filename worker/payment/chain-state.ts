/**
 * What the chain itself says about a payment, read by the service (payment/outcome.ts, and the
 * Meter's background check) when a settlement's outcome is unknown:
 *
 * - whether the payment's authorization was used: EIP-3009's `authorizationState(from, nonce)`
 *   on the token, or the bit of Permit2's `nonceBitmap(owner, nonce >> 8)`. Each authorization
 *   moves its money once and only with its signer's terms, so "used" means "paid";
 * - the status of a settlement transaction the facilitator named.
 *
 * Every read makes its own viem client: no I/O is shared with another request (a Worker
 * cannot await I/O another request started), and each is bounded by READ_TIMEOUT_MS.
 */
import { PERMIT2_ADDRESS } from "@x402/evm";
import { createPublicClient, getAddress, type Hex, http, parseAbi } from "viem";
import type { DecodedPayment } from "./payload";

/** One JSON-RPC read: after this it counts as unanswered. */
const READ_TIMEOUT_MS = 4_000;

/** The authorization a payment spends, as the chain knows it; JSON-safe (kept in the Meter). */
export interface AuthorizationRef {
  method: "eip3009" | "permit2";
  /** The token (EIP-3009) or Permit2 (whose nonce bitmap records the permit). */
  contract: string;
  /** The payer, as signed. */
  owner: string;
  /** EIP-3009: the 32-byte hex nonce; Permit2: the nonce in decimal. */
  nonce: string;
}

/** The authorization of a decoded payment. */
export function authorizationOf(payment: DecodedPayment): AuthorizationRef {
  const inner = payment.payload.payload as Record<string, Record<string, unknown>>;
  if (payment.method === "permit2") {
    const p = inner.permit2Authorization as { from: string; nonce: string };
    return {
      method: "permit2",
      contract: PERMIT2_ADDRESS,
      owner: p.from,
      nonce: BigInt(p.nonce).toString(),
    };
  }
  const a = inner.authorization as { from: string; nonce: string };
  return {
    method: "eip3009",
    contract: payment.payload.accepted.asset,
    owner: a.from,
    nonce: a.nonce,
  };
}

const eip3009Abi = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
]);
const permit2Abi = parseAbi([
  "function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)",
]);

function reader(rpcUrl: string) {
  return createPublicClient({
    transport: http(rpcUrl, { timeout: READ_TIMEOUT_MS, retryCount: 0 }),
  });
}

/** Whether the chain records the authorization as used (its transfer happened). */
export async function authorizationUsed(rpcUrl: string, auth: AuthorizationRef): Promise<boolean> {
  const client = reader(rpcUrl);
  if (auth.method === "eip3009") {
    return client.readContract({
      address: getAddress(auth.contract),
      abi: eip3009Abi,
      functionName: "authorizationState",
      args: [getAddress(auth.owner), auth.nonce as Hex],
    });
  }
  const nonce = BigInt(auth.nonce);
  const bitmap = await client.readContract({
    address: getAddress(auth.contract),
    abi: permit2Abi,
    functionName: "nonceBitmap",
    args: [getAddress(auth.owner), nonce >> 8n],
  });
  return ((bitmap >> (nonce & 0xffn)) & 1n) === 1n;
}

/** A transaction's status: mined and succeeded, mined and reverted, or not (yet) known. */
export type TransactionStatus = "success" | "reverted" | "unknown";

export async function transactionStatus(rpcUrl: string, hash: Hex): Promise<TransactionStatus> {
  try {
    const receipt = await reader(rpcUrl).getTransactionReceipt({ hash });
    return receipt.status;
  } catch {
    return "unknown";
  }
}
