/**
 * The x402 resource server (from @x402/core) that verifies and settles payments through a
 * facilitator: a remote one by URL, or an in-process x402Facilitator with the exact EVM
 * scheme (@x402/evm) that talks to an RPC endpoint with its own key.
 *
 * Workers have no env at module load, so the server is built on the first paid request
 * from that request's settings and kept for the isolate, keyed by those settings (another
 * configuration gets its own). Only a server whose initialize() (the facilitator's
 * supported kinds) succeeded is kept; a failed start is retried on the next request.
 */
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { inProcessFacilitator } from "./in-process-facilitator";
import type { FacilitatorSettings, PaymentSettings } from "./settings";

const servers = new Map<string, x402ResourceServer>();

/** In memory only: the key may hold the facilitator's private key, it is never logged. */
function cacheKey(settings: PaymentSettings, facilitator: FacilitatorSettings): string {
  const where =
    facilitator.kind === "remote"
      ? facilitator.url
      : `${facilitator.rpcUrl}#${facilitator.privateKey}`;
  return `${settings.network}|${facilitator.kind}|${where}`;
}

/** The initialized resource server for these settings (payments must be on). */
export async function resourceServer(
  settings: PaymentSettings,
  facilitator: FacilitatorSettings,
): Promise<x402ResourceServer> {
  const key = cacheKey(settings, facilitator);
  const cached = servers.get(key);
  if (cached) return cached;
  const client =
    facilitator.kind === "remote"
      ? new HTTPFacilitatorClient({ url: facilitator.url })
      : inProcessFacilitator(settings, facilitator.rpcUrl, facilitator.privateKey);
  const server = new x402ResourceServer(client).register(
    settings.network,
    new ExactEvmServerScheme(),
  );
  await server.initialize();
  servers.set(key, server);
  return server;
}
