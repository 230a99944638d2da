/** GET /v1/jobs/:id: the caller's own jobs only. */
import { describe, expect, it } from "vitest";
import { expectError, MISSING_ID, newWallet, request, signAuth } from "../../helpers";
import { finished, submit } from "./fixtures";

describe("GET /v1/jobs/:id", () => {
  it("is the caller's only: another wallet's job and a missing one are 404, a bad id 422", async () => {
    const owner = newWallet();
    const id = await submit(owner, "/v1/ingest", { text: "I prefer window seats." }, "ingest");
    const other = newWallet();
    const res = expectError(await other.get(`/v1/jobs/${id}`), 404, "NOT_FOUND");
    expect(res.message).toBe("Job not found");
    expectError(await owner.get(`/v1/jobs/${MISSING_ID}`), 404, "NOT_FOUND");
    const bad = expectError(await owner.get("/v1/jobs/not-a-uuid"), 422, "VALIDATION_ERROR");
    expect(bad.details.issues[0].path).toBe("id");
    // The same 422 as the memory routes give for a malformed id.
    expectError(await owner.get("/v1/memories/not-a-uuid"), 422, "VALIDATION_ERROR");
    expectError(await request("GET", `/v1/jobs/${id}`), 401, "UNAUTHORIZED");
    const expired = await signAuth(owner.account, Math.floor(Date.now() / 1000) - 1000);
    expectError(
      await request("GET", `/v1/jobs/${id}`, { headers: { "x-wallet-auth": expired } }),
      401,
      "UNAUTHORIZED",
    );
    // The owner still sees it, with an upper-case id too.
    expect((await finished(owner, id.toUpperCase())).id).toBe(id);
  });
});
