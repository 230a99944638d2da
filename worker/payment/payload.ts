/**
 * The client's `PAYMENT-SIGNATURE` header: base64 of the x402 v2 PaymentPayload
 * `{x402Version: 2, payload: {authorization: {from, to, value, validAfter, validBefore,
 * nonce}, signature}, resource, accepted}` carrying an EIP-3009 TransferWithAuthorization.
 * Decoded and shape-checked here; whether it pays for this request is the facilitator's
 * verification (payment/flow.ts).
 */
import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { type Address, getAddress, type Hex, recoverTypedDataAddress } from "viem";
import { z } from "zod";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an address");
const uint = z.string().regex(/^\d{1,78}$/, "must be an unsigned integer string");

const authorizationSchema = z.object({
  from: address,
  to: address,
  value: uint,
  validAfter: uint,
  validBefore: uint,
  nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes of hex"),
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
  payload: z.object({
    authorization: authorizationSchema,
    signature: z.string().regex(/^0x[0-9a-fA-F]+$/, "must be hex"),
  }),
  resource: z
    .object({
      url: z.string(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
    })
    .optional(),
});

export type Authorization = z.infer<typeof authorizationSchema>;

export interface DecodedPayment {
  /** The payload as the client sent it (handed to the facilitator unchanged). */
  payload: PaymentPayload;
  authorization: Authorization;
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
      reason: `PAYMENT-SIGNATURE is not an x402 v2 EIP-3009 payment (${where}: ${issue?.message ?? "invalid"})`,
    };
  }
  const { authorization, signature } = parsed.data.payload;
  return {
    ok: true,
    payment: {
      payload: raw as PaymentPayload,
      authorization,
      signature: signature as Hex,
      payer: authorization.from.toLowerCase(),
    },
  };
}

export type PayerCheck = { ok: true; wallet: string } | { ok: false; reason: string };

/**
 * Identity from the payment alone (spec, Authentication, way 3): the signature must recover
 * to authorization.from under the EIP-712 domain the payment names, and the authorization
 * must still be valid. This proves who signed, not that the payment is acceptable: the
 * facilitator verifies that (amount, payee, network, balance) before the handler runs.
 * EOA signatures only; smart-contract wallets identify with x-wallet-auth.
 */
export async function verifyPayer(
  payment: DecodedPayment,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<PayerCheck> {
  const { authorization: auth, payload } = payment;
  if (BigInt(auth.validBefore) <= BigInt(nowSeconds)) {
    return { ok: false, reason: "PAYMENT-SIGNATURE authorization has expired" };
  }
  const chainId = Number(payload.accepted.network.split(":")[1]);
  const { name, version } = payload.accepted.extra;
  if (
    payload.accepted.network.split(":")[0] !== "eip155" ||
    !Number.isSafeInteger(chainId) ||
    typeof name !== "string" ||
    typeof version !== "string" ||
    !/^0x[0-9a-fA-F]{40}$/.test(payload.accepted.asset)
  ) {
    return { ok: false, reason: "PAYMENT-SIGNATURE names no EVM token domain" };
  }
  let signer: Address;
  try {
    signer = await recoverTypedDataAddress({
      domain: { name, version, chainId, verifyingContract: getAddress(payload.accepted.asset) },
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: {
        from: getAddress(auth.from),
        to: getAddress(auth.to),
        value: BigInt(auth.value),
        validAfter: BigInt(auth.validAfter),
        validBefore: BigInt(auth.validBefore),
        nonce: auth.nonce as Hex,
      },
      signature: payment.signature,
    });
  } catch {
    return { ok: false, reason: "PAYMENT-SIGNATURE signature is malformed" };
  }
  if (signer.toLowerCase() !== payment.payer) {
    return { ok: false, reason: "PAYMENT-SIGNATURE is not signed by authorization.from" };
  }
  return { ok: true, wallet: payment.payer };
}
