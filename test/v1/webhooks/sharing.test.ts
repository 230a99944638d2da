/**
 * A grantee's webhook on an owner's namespace: registered with `owner` in the body, it hears
 * that namespace's events only, and stops at revocation (disabled, with the reason).
 */
import { describe, expect, it } from "vitest";
import { expectError, expectStatus, newWallet, sleep } from "../../helpers";
import { grant, revoke } from "../sharing/fixtures";
import { hook, kindsOf, received, receivedAtLeast, register } from "./fixtures";

describe("a grantee's webhook on a shared namespace", () => {
  it("hears the granted namespace, and nothing after revocation", async () => {
    const owner = newWallet();
    const grantee = newWallet();
    await grant(owner, grantee, "team", "read");
    const { key, url } = hook();
    const created = await register(grantee, key, {
      url,
      owner: owner.address,
      namespace: "team",
      include_content: true,
    });
    expect(created.owner).toBe(owner.address.toLowerCase());
    // The grantee lists it as its own; the owner does not.
    expect(expectStatus(await grantee.get("/v1/webhooks"), 200).webhooks).toHaveLength(1);
    expect(expectStatus(await owner.get("/v1/webhooks"), 200).webhooks).toEqual([]);

    await owner.storeNew("The private diary entry", { namespace: "private" });
    const shared = await owner.storeNew("The team offsite is in May", { namespace: "team" });
    const got = await receivedAtLeast(key, 1);
    expect(got.map((r) => [r.verified, r.payload.type, r.payload.data.memory_id])).toEqual([
      [true, "memory.stored", shared],
    ]);
    expect(got[0]?.payload.data.content).toBe("The team offsite is in May");

    await revoke(owner, grantee, "team");
    await owner.storeNew("After the revocation", { namespace: "team" });
    await owner.patch(`/v1/memories/${shared}`, { importance: 0.9 });
    // Nothing more arrives, and the webhook says why it stopped.
    let view = expectStatus(await grantee.get(`/v1/webhooks/${created.id}`), 200);
    for (let i = 0; i < 40 && view.status !== "disabled"; i++) {
      await sleep(50);
      view = expectStatus(await grantee.get(`/v1/webhooks/${created.id}`), 200);
    }
    expect(view).toMatchObject({ status: "disabled" });
    expect(view.disabled_reason).toContain("grant revoked");
    await sleep(300);
    expect(kindsOf(await received(key))).toEqual(["memory.stored"]);
  });

  it("needs a namespace granted to it: none, another's, or no namespace is refused", async () => {
    const owner = newWallet();
    const grantee = newWallet();
    const { url } = hook();
    // No grant at all: the 404 of a missing namespace, as for an owner nobody has seen.
    const none = await grantee.post("/v1/webhooks", {
      url,
      owner: owner.address,
      namespace: "team",
    });
    const nobody = await grantee.post("/v1/webhooks", {
      url,
      owner: newWallet().address,
      namespace: "team",
    });
    expectError(none, 404, "NOT_FOUND");
    expectError(nobody, 404, "NOT_FOUND");
    expect(none.body.error.message).toBe(nobody.body.error.message);
    await grant(owner, grantee, "team", "write");
    expectError(
      await grantee.post("/v1/webhooks", { url, owner: owner.address, namespace: "other" }),
      404,
      "NOT_FOUND",
    );
    const missing = await grantee.post("/v1/webhooks", { url, owner: owner.address });
    expectError(missing, 422, "VALIDATION_ERROR");
    expectStatus(
      await grantee.post("/v1/webhooks", { url, owner: owner.address, namespace: "team" }),
      201,
    );
    // Naming itself as the owner is its own webhook.
    const own = await owner.post("/v1/webhooks", { url, owner: owner.address });
    expect(expectStatus(own, 201).owner).toBe(owner.address.toLowerCase());
  });
});
