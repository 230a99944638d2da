/**
 * The suite's Worker code with other bindings, as a fetch function, for what the suite's own
 * Worker (SELF) is not configured to do: another embedding model, payments on a chain, no
 * jobs queue. It uses the suite's database and Durable Objects. Work the Worker leaves
 * running after the response (waitUntil: access counts, in-process jobs) finishes before the
 * response is handed back, so the next call sees it.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import type { Env } from "../worker/env";
import worker from "../worker/index";

export function workerWith(bindings: Env) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(input, init), bindings, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
}
