/**
 * The client's `PAYMENT-SIGNATURE` header: base64 of the x402 v2 PaymentPayload
 * `{x402Version: 2, payload, resource, accepted}` of the exact scheme, in either of its two
 * transfer methods (spec, Authentication: "via EIP-3009 or Permit2"):
 *
 * - EIP-3009: `payload: {authorization: {from, to, value, validAfter, validBefore, nonce},
 *   signature}`, a TransferWithAuthorization signed under the token's EIP-712 domain;
 * - Permit2: `payload: {permit2Authorization: {from, permitted: {token, amount}, spender,
 *   nonce, deadline, witness: {to, validAfter}}, signature}`, a PermitWitnessTransferFrom
 *   signed under Permit2's domain, spent by the x402 exact Permit2 proxy.
 *
 * Decoded and shape-checked here; whether it pays for this request is the facilitator's
 * verification (middleware/payment.ts).
 */
import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { authorizationTypes, PERMIT2_ADDRESS, permit2WitnessTypes } from "@x402/evm";
import { type Address, getAddress, type Hex, recoverTypedDataAddress } from "viem";
import { z } from "zod";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an address");
const uint = z.string().regex(/^\d{1,78}$/, "must be an unsigned integer string");
const signature = z.string().regex(/^0x[0-9a-fA-F]+$/, "must be hex");

const eip3009Schema = z.object({
  authorization: z.object({
    from: address,
    to: address,
    value: uint,
    validAfter: uint,
    validBefore: uint,
    nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes of hex"),
  }),
  signature,
});

const permit2Schema = z.object({
  permit2Authorization: z.object({
    from: address,
    permitted: z.object({ token: address, amount: uint }),
    spender: address,
    nonce: uint,
    deadline: uint,
    witness: z.object({ to: address, validAfter: uint }),
  }),
  signature,
});

const payloadSchema = z.object({
  x402Version: z.literal(2, "only x402 version 2 is accepted"),
  accepted: z.object({
    scheme: z.string(),
    network: z.string().regex(/^[^:]+:.+$/),
    asset: z.string(),
    amount: z.string(),
    payTo: z.string(),
    maxTimeoutSeconds: z.number(),
    extra: z.record(z.string(), z.unknown()),
  }),
  payload: z.union([eip3009Schema, permit2Schema], {
    message: "must be an EIP-3009 authorization or a Permit2 permit2Authorization",
  }),
  resource: z
    .object({
      url: z.string(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
    })
    .optional(),
});

export type TransferMethod = "eip3009" | "permit2";

export interface DecodedPayment {
  /** The payload as the client sent it (handed to the facilitator unchanged). */
  payload: PaymentPayload;
  method: TransferMethod;
  /** Unix seconds: the authorization is void from then on (validBefore / deadline). */
  expiresAt: bigint;
  /**
   * The key of its authorization in the payer's Meter (replay guard): the EIP-3009 nonce, or
   * `permit2:` and Permit2's nonce. Each is spent once on chain, and the two never collide.
   */
  nonceKey: string;
  signature: Hex;
  /** authorization.from, lower-cased like every wallet identity. */
  payer: string;
}

export type DecodeResult = { ok: true; payment: DecodedPayment } | { ok: false; reason: string };

/** Decodes the header; a malformed one is refused with a reason fit for the client. */
export function decodePayment(header: string): DecodeResult {
  let raw: unknown;
  try {
    raw = decodePaymentSignatureHeader(header.trim());
  } catch {
    return { ok: false, reason: "PAYMENT-SIGNATURE is not base64-encoded JSON" };
  }
  const parsed = payloadSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "payload";
    return {
      ok: false,
      reason: `PAYMENT-SIGNATURE is not an x402 v2 exact payment (${where}: ${issue?.message ?? "invalid"})`,
    };
  }
  const inner = parsed.data.payload;
  const eip3009 = "authorization" in inner;
  const from = eip3009 ? inner.authorization.from : inner.permit2Authorization.from;
  return {
    ok: true,
    payment: {
      payload: raw as PaymentPayload,
      method: eip3009 ? "eip3009" : "permit2",
      expiresAt: BigInt(
        eip3009 ? inner.authorization.validBefore : inner.permit2Authorization.deadline,
      ),
      nonceKey: eip3009
        ? inner.authorization.nonce.toLowerCase()
        : `permit2:${BigInt(inner.permit2Authorization.nonce).toString()}`,
      signature: inner.signature as Hex,
      payer: from.toLowerCase(),
    },
  };
}

export type PayerCheck = { ok: true; wallet: string } | { ok: false; reason: string };

/** The EIP-712 message a payment's signature covers, by its transfer method. */
function signedMessage(payment: DecodedPayment, chainId: number) {
  const { payload } = payment;
  if (payment.method === "permit2") {
    const p = (payload.payload as z.infer<typeof permit2Schema>).permit2Authorization;
    return {
      domain: { name: "Permit2", chainId, verifyingContract: getAddress(PERMIT2_ADDRESS) },
      types: permit2WitnessTypes,
      primaryType: "PermitWitnessTransferFrom" as const,
      message: {
        permitted: { token: getAddress(p.permitted.token), amount: BigInt(p.permitted.amount) },
        spender: getAddress(p.spender),
        nonce: BigInt(p.nonce),
        deadline: BigInt(p.deadline),
        witness: { to: getAddress(p.witness.to), validAfter: BigInt(p.witness.validAfter) },
      },
    };
  }
  const a = (payload.payload as z.infer<typeof eip3009Schema>).authorization;
  const { name, version } = payload.accepted.extra;
  if (typeof name !== "string" || typeof version !== "string") return undefined;
  return {
    domain: { name, version, chainId, verifyingContract: getAddress(payload.accepted.asset) },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization" as const,
    message: {
      from: getAddress(a.from),
      to: getAddress(a.to),
      value: BigInt(a.value),
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
      nonce: a.nonce as Hex,
    },
  };
}

/**
 * Identity from the payment alone (spec, Authentication, way 3): the signature must recover
 * to the payer under the EIP-712 domain of its transfer method, and the authorization must
 * still be valid. This proves who signed, not that the payment is acceptable: the facilitator
 * verifies that (amount, payee, network, balance) before anything is served. EOA signatures
 * only; smart-contract wallets identify with x-wallet-auth.
 */
export async function verifyPayer(
  payment: DecodedPayment,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<PayerCheck> {
  if (payment.expiresAt <= BigInt(nowSeconds)) {
    return { ok: false, reason: "PAYMENT-SIGNATURE authorization has expired" };
  }
  const { accepted } = payment.payload;
  const chainId = Number(accepted.network.split(":")[1]);
  const typed =
    accepted.network.split(":")[0] === "eip155" &&
    Number.isSafeInteger(chainId) &&
    /^0x[0-9a-fA-F]{40}$/.test(accepted.asset)
      ? signedMessage(payment, chainId)
      : undefined;
  if (!typed) return { ok: false, reason: "PAYMENT-SIGNATURE names no EVM token domain" };
  let signer: Address;
  try {
    signer = await recoverTypedDataAddress({ ...typed, signature: payment.signature } as Parameters<
      typeof recoverTypedDataAddress
    >[0]);
  } catch {
    return { ok: false, reason: "PAYMENT-SIGNATURE signature is malformed" };
  }
  if (signer.toLowerCase() !== payment.payer) {
    return { ok: false, reason: "PAYMENT-SIGNATURE is not signed by its payer (from)" };
  }
  return { ok: true, wallet: payment.payer };
}
