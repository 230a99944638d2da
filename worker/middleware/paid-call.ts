/**
 * A paid call as the payment path passes it around (payment.ts, payment-unsettled.ts), and
 * the one way its handler runs once its price is paid.
 */
import type { PaymentRequirements } from "@x402/core/types";
import type { ApiError } from "../errors";
import { logError } from "../lib/log";
import type { SendLedger } from "../payment/in-process-facilitator";
import type { DecodedPayment } from "../payment/payload";
import {
  PAYMENT_RESPONSE_HEADER,
  type PaidResource,
  type RefusalOptions,
} from "../payment/required";
import type { resourceServer } from "../payment/server";
import type { PaymentSettings } from "../payment/settings";
import type { AppContext } from "./app-env";

/** The header of a failed answer whose settled payment went to the payer's credit. */
export const PAYMENT_CREDITED_HEADER = "X-Payment-Credited";

/** The handler of the paid call, its thrown errors already rendered as responses. */
export type Run = () => Promise<Response>;

/** A paid call whose payment decoded, pays for this call, and matches its requirement. */
export interface PaidCall {
  payment: DecodedPayment;
  requirement: PaymentRequirements;
  resource: PaidResource;
  settings: PaymentSettings;
  server: Awaited<ReturnType<typeof resourceServer>>;
  refuse: (reason: string, opts?: Omit<RefusalOptions, "reason">) => Promise<ApiError>;
  /** When the call began (ms): every bound counts from here. */
  startedMs: number;
  /** What the in-process facilitator sent for it. */
  ledger: SendLedger;
}

/** How a paid call ended, for its payment identifier. */
export type Served =
  | { outcome: "served"; response: Response }
  | { outcome: "credited"; response: Response }
  | { outcome: "unknown"; response: Response };

/**
 * Runs a paid call's handler once its price is paid. A failure after paying puts the price in
 * the payer's credit, for its next paid call.
 */
export async function runPaid(
  c: AppContext,
  call: Pick<PaidCall, "payment" | "resource">,
  run: Run,
  receipt?: string,
): Promise<Served> {
  c.set("payment", "paid");
  const response = await run();
  if (receipt) response.headers.set(PAYMENT_RESPONSE_HEADER, receipt);
  if (response.status < 400) return { outcome: "served", response };
  const { atomic } = call.resource.price;
  await c
    .get("metering")
    .wallet(call.payment.payer)
    .addCredit(Number(atomic))
    .then(() => response.headers.set(PAYMENT_CREDITED_HEADER, atomic))
    .catch((err: unknown) =>
      logError(`[${c.get("requestId")}] could not credit a failed paid call`, err),
    );
  c.set("payment", "credited");
  return { outcome: "credited", response };
}
