/** What the background job tests share: submitting with async: true, and waiting for the end. */
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { withDb } from "../../db";
import type { Json, Wallet } from "../../helpers";

export const JOB_KEYS = [
  "attempts",
  "created_at",
  "error",
  "finished_at",
  "id",
  "job_id",
  "kind",
  "result",
  "started_at",
  "status",
  "updated_at",
];

/** Polls GET /v1/jobs/:id until the job has finished (the local queue delivers within ~1 s). */
export async function finished(w: Wallet, id: string): Promise<Json> {
  for (let poll = 0; poll < 150; poll++) {
    const res = await w.get(`/v1/jobs/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (res.body.status === "succeeded" || res.body.status === "failed") return res.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${id} did not finish`);
}

/** POSTs with async: true and checks the 202; returns the job id. */
export async function submit(w: Wallet, path: string, body: Record<string, unknown>, kind: string) {
  const res = await w.post(path, { ...body, async: true });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(Object.keys(res.body).sort()).toEqual([...JOB_KEYS, "status_url"].sort());
  expect(res.body).toMatchObject({
    kind,
    status: "queued",
    result: null,
    error: null,
    attempts: 0,
    started_at: null,
    finished_at: null,
  });
  expect(res.body.job_id).toBe(res.body.id);
  expect(res.body.status_url).toBe(`/v1/jobs/${res.body.id}`);
  expect(res.headers.get("location")).toBe(`/v1/jobs/${res.body.id}`);
  return res.body.id as string;
}

export async function jobCount(w: Wallet): Promise<number> {
  return withDb(async (db) => {
    const r = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM jobs JOIN users ON users.id = jobs.user_id
      WHERE users.wallet = ${w.address.toLowerCase()}`);
    return Number(r.rows[0]?.n ?? -1);
  });
}

export const CONVERSATION = [
  { role: "user", content: "I run a bakery in Porto. We open at 7am on weekdays." },
  { role: "assistant", content: "Great! Anything else?" },
  { role: "user", content: "My best seller is the pastel de nata." },
];
