/** The dead-letter consumer: a job that gave up is marked failed, with the reason it recorded. */
import { afterAll, describe, expect, it } from "vitest";
import { GAVE_UP_MESSAGE } from "../../queues/dead-letter";
import { DEAD_LETTERS, deliver, fakeLlm, opened, owner, QUEUE, TEXT } from "./fixtures";

afterAll(() => opened.close());

describe("dead-letter consumer", () => {
  it("marks the job failed with the reason its last attempt recorded", async () => {
    const o = await owner();
    const job = await o.newJob("ingest", { text: TEXT });
    await deliver(QUEUE, [job.message], { env: fakeLlm("fail-500"), attempts: 6 });
    const lastTry = await o.job(job.id);
    expect(lastTry.status).toBe("queued");

    const { ids, result } = await deliver(DEAD_LETTERS, [job.message]);
    expect(result.explicitAcks).toEqual(ids);
    expect(result.retryMessages).toEqual([]);
    const view = await o.job(job.id);
    expect(view.status).toBe("failed");
    expect(view.error).toEqual(lastTry.error);
    expect(view.error.code).toBe("BAD_GATEWAY");
    expect(view.finished_at).not.toBeNull();
    expect(await o.wallet.memoryCount()).toBe(0);
  });

  it("gives a job that never recorded a reason a generic one, and leaves finished jobs alone", async () => {
    const o = await owner();
    const silent = await o.newJob("extract", { messages: [{ role: "user", content: TEXT }] });
    const done = await o.newJob("ingest", { text: TEXT });
    await deliver(QUEUE, [done.message]);
    const succeeded = await o.job(done.id);

    const { ids, result } = await deliver(DEAD_LETTERS, [silent.message, done.message]);
    expect(result.explicitAcks).toEqual(ids);
    expect(await o.job(silent.id)).toMatchObject({
      status: "failed",
      error: { code: "INTERNAL_ERROR", message: GAVE_UP_MESSAGE },
    });
    expect(await o.job(done.id)).toEqual(succeeded);
  });
});
