/**
 * Webhook tests' helpers: URLs of the suite's receiver (test/webhook-receiver.ts), which
 * verifies every delivery with `standardwebhooks` and records it; registration that hands the
 * receiver the secret; waiting for deliveries; the Worker in production mode; and delivering
 * a batch straight to the Worker's queue() handler, as test/queues does for jobs.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import type { Env } from "../../../worker/env";
import worker from "../../../worker/index";
import { expectStatus, type Json, sleep, type Wallet } from "../../helpers";
import { workerWith } from "../../worker-with";

export const RECEIVER = env.WEBHOOK_RECEIVER_URL;

/** A fresh key of the receiver's records, and the URL delivering there in `mode`. */
export function hook(mode = "ok"): { key: string; url: string } {
  const key = crypto.randomUUID();
  return { key, url: `${RECEIVER}/hook/${mode}/${key}` };
}

/** Registers a webhook (201), tells the receiver its secret, returns the answer. */
export async function register(
  w: Wallet,
  key: string,
  body: { url: string } & Record<string, unknown>,
): Promise<Json> {
  const created = expectStatus(await w.post("/v1/webhooks", body), 201);
  const res = await fetch(`${RECEIVER}/__secret`, {
    method: "POST",
    body: JSON.stringify({ key, secret: created.secret }),
  });
  expect(res.status).toBe(200);
  return created;
}

export interface Received {
  mode: string;
  verified: boolean;
  error: string | null;
  headers: Record<string, string>;
  payload: Json;
  status: number;
  received_at: number;
}

export async function received(key: string): Promise<Received[]> {
  const res = await fetch(`${RECEIVER}/__deliveries?key=${key}`);
  return (await res.json()) as Received[];
}

/** The receiver's records of `key` once there are at least `count` (or after `ms`). */
export async function receivedAtLeast(key: string, count: number, ms = 10_000) {
  const until = Date.now() + ms;
  let got = await received(key);
  while (got.length < count && Date.now() < until) {
    await sleep(25);
    got = await received(key);
  }
  return got;
}

/** The kinds the receiver got, in order of arrival. */
export const kindsOf = (list: Received[]) => list.map((r) => r.payload?.type);

/** The suite's Worker as production runs it: https only, no loopback (no local mode). */
export const productionEnv: Env = { ...env, WEBHOOKS_ALLOW_LOCAL: undefined };
export const production = workerWith(productionEnv);

/** Delivers one batch to the Worker's queue(); returns the retry delays asked for. */
export async function deliverBatch(
  queue: string,
  bodies: unknown[],
  opts: { attempts?: number; env?: Env } = {},
) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({
      id: crypto.randomUUID(),
      timestamp: new Date(),
      attempts: opts.attempts ?? 1,
      body,
    })),
  );
  const delays: Array<number | undefined> = [];
  for (const msg of batch.messages) {
    const retry = msg.retry.bind(msg);
    vi.spyOn(msg, "retry").mockImplementation((options) => {
      delays.push(options?.delaySeconds);
      retry(options);
    });
  }
  const ctx = createExecutionContext();
  await worker.queue(batch, opts.env ?? (env as Env), ctx);
  const result = await getQueueResult(batch, ctx);
  return { result, delays };
}
