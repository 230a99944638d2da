/**
 * The x402 resource server (from @x402/core) that verifies and settles payments through a
 * facilitator: a remote one by URL, or an in-process x402Facilitator with the exact EVM
 * scheme (@x402/evm) that talks to an RPC endpoint with its own key.
 *
 * A remote facilitator's server is built on the first paid request (Workers have no env at
 * module load) and kept for the isolate, keyed by its settings: it holds no I/O between calls.
 * Only a server whose initialize() (the facilitator's supported kinds) succeeded is kept; a
 * failed start is retried on the next request. An in-process one is made for each request, with
 * that request's settlement deadline (in-process-facilitator.ts says why).
 */
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { inProcessFacilitator, type SendLedger } from "./in-process-facilitator";
import type { FacilitatorSettings, PaymentSettings } from "./settings";

const remoteServers = new Map<string, x402ResourceServer>();

/** One request's settlement: until when it may run, and what its facilitator sent. */
export interface SettlementWindow {
  deadlineMs: number;
  ledger: SendLedger;
}

async function started(
  client: ConstructorParameters<typeof x402ResourceServer>[0],
  settings: PaymentSettings,
) {
  const server = new x402ResourceServer(client).register(
    settings.network,
    new ExactEvmServerScheme(),
  );
  await server.initialize();
  return server;
}

/** The initialized resource server for these settings (payments must be on). */
export async function resourceServer(
  settings: PaymentSettings,
  facilitator: FacilitatorSettings,
  window: SettlementWindow,
): Promise<x402ResourceServer> {
  if (facilitator.kind === "in-process") {
    const { rpcUrl, privateKey } = facilitator;
    return started(
      inProcessFacilitator(settings, rpcUrl, privateKey, window.deadlineMs, window.ledger),
      settings,
    );
  }
  const key = `${settings.network}|${facilitator.url}`;
  const cached = remoteServers.get(key);
  if (cached) return cached;
  const server = await started(new HTTPFacilitatorClient({ url: facilitator.url }), settings);
  remoteServers.set(key, server);
  return server;
}
