/**
 * The suite's Worker code with other bindings, as a fetch function, for what the suite's own
 * Worker (SELF) is not configured to do: another embedding model, payments on a chain, no
 * jobs queue. It uses the suite's database and Durable Objects. Work the Worker leaves
 * running after the response (waitUntil: access counts, in-process jobs) finishes before the
 * response is handed back, so the next call sees it.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "../worker/env";
import worker from "../worker/index";
import { countedProviders } from "./providers";

export function workerWith(bindings: Env) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(input, init), bindings, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
}

/**
 * The suite's Worker embedding and calling its language model through the fake OpenAI server
 * under a model name of the test's own (`label:` and a UUID), so that callsOf(model) counts
 * exactly the calls of this Worker's requests.
 */
export function countedWorker(label: string) {
  const model = `${label}:${crypto.randomUUID()}`;
  return { model, worker: workerWith({ ...env, ...countedProviders(model) }) };
}
