/**
 * The two ways a dispatch starts: after a request that may have written (its services'
 * `afterwards`, so it runs once the response is sent, with the request's database), and the
 * cron's catch-up every minute (worker/index.ts `scheduled`), on services of its own.
 */
import type { Services } from "../context";
import type { Env } from "../env";
import { openServices } from "../services";
import { catchUpAll, dispatchFor, sinkFor } from "./dispatch";

/** Asks the request's services to dispatch `ownerId`'s webhooks once the response is sent. */
export function dispatchAfterResponse(services: Services, env: Env, ownerId: string): void {
  services.afterwards(`webhooks:${ownerId}`, () =>
    dispatchFor(services, sinkFor(env, services), ownerId),
  );
}

export async function catchUpWebhooks(env: Env): Promise<void> {
  const opened = openServices(env);
  try {
    const owners = await catchUpAll(opened.services, sinkFor(env, opened.services));
    if (owners > 0) console.log(JSON.stringify({ event: "webhooks_catch_up", owners }));
  } finally {
    await opened.close();
  }
}
