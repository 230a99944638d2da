/** The grant calls: give, change, list, take back, and what a grantee was given. */
import { describe, expect, it } from "vitest";
import { expectError, ISO, newWallet } from "../../helpers";
import { as, grant } from "./fixtures";

describe("grants", () => {
  it("gives, changes, lists and takes back a grant; the grantee lists what it was given", async () => {
    const owner = newWallet();
    const agent = newWallet();
    const given = await owner.post("/v1/grants", {
      grantee: agent.address,
      namespace: "research",
      permission: "read",
    });
    expect(given.status).toBe(201);
    expect(given.body).toEqual({
      owner: owner.address.toLowerCase(),
      grantee: agent.address.toLowerCase(),
      namespace: "research",
      permission: "read",
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const changed = await owner.post("/v1/grants", {
      grantee: agent.address.toUpperCase().replace("0X", "0x"),
      namespace: "research",
      permission: "write",
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ permission: "write", created_at: given.body.created_at });
    await grant(owner, agent, "drafts", "read");

    const listed = await owner.getOk("/v1/grants");
    expect(listed.grants.map((g: { namespace: string }) => g.namespace)).toEqual([
      "drafts",
      "research",
    ]);
    expect((await owner.getOk("/v1/grants?namespace=drafts")).grants).toHaveLength(1);
    const received = await agent.getOk("/v1/grants/received");
    expect(received.grants).toMatchObject([
      { owner: owner.address.toLowerCase(), namespace: "drafts", permission: "read" },
      { owner: owner.address.toLowerCase(), namespace: "research", permission: "write" },
    ]);
    // The grantee gave nothing; the owner was given nothing.
    expect((await agent.getOk("/v1/grants")).grants).toEqual([]);
    expect((await owner.getOk("/v1/grants/received")).grants).toEqual([]);

    const revoked = await owner.del(`/v1/grants?grantee=${agent.address}&namespace=research`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ revoked: true, grant: { namespace: "research" } });
    const again = await owner.del(`/v1/grants?grantee=${agent.address}&namespace=research`);
    expectError(again, 404, "NOT_FOUND");
    expect((await agent.getOk("/v1/grants/received")).grants).toHaveLength(1);
  });

  it("refuses a grant to oneself, a bad address, permission or namespace with a 422", async () => {
    const owner = newWallet();
    const cases = [
      { grantee: owner.address, namespace: "a", permission: "read" },
      { grantee: "0x1234", namespace: "a", permission: "read" },
      { grantee: newWallet().address, namespace: "a", permission: "admin" },
      { grantee: newWallet().address, namespace: "", permission: "read" },
      { grantee: newWallet().address, namespace: "x".repeat(256), permission: "read" },
      { namespace: "a", permission: "read" },
    ];
    for (const body of cases) {
      expectError(await owner.post("/v1/grants", body), 422, "VALIDATION_ERROR");
    }
    expectError(await owner.del("/v1/grants?grantee=0x12&namespace=a"), 422, "VALIDATION_ERROR");
    expectError(await owner.del(`/v1/grants?namespace=a`), 422, "VALIDATION_ERROR");
    expect((await owner.getOk("/v1/grants")).grants).toEqual([]);
  });

  it("lets only the owner see and take back its grants", async () => {
    const owner = newWallet();
    const agent = newWallet();
    const stranger = newWallet();
    await grant(owner, agent, "team", "write");
    // Revoking another owner's grant finds nothing, and the grant stays.
    const theirs = await stranger.del(`/v1/grants?grantee=${agent.address}&namespace=team`);
    expectError(theirs, 404, "NOT_FOUND");
    const byGrantee = await agent.del(`/v1/grants?grantee=${agent.address}&namespace=team`);
    expectError(byGrantee, 404, "NOT_FOUND");
    expect((await stranger.getOk("/v1/grants")).grants).toEqual([]);
    // Grant calls are the owner's own: a grantee cannot act on them in the owner's name.
    expectError(await agent.get(as("/v1/grants", owner)), 403, "FORBIDDEN");
    const regrant = await agent.post(as("/v1/grants", owner), {
      grantee: stranger.address,
      namespace: "team",
      permission: "write",
    });
    expectError(regrant, 403, "FORBIDDEN");
    expect((await owner.getOk("/v1/grants")).grants).toHaveLength(1);
  });

  it("needs a wallet, and a well-formed owner", async () => {
    const { request } = await import("../../helpers");
    expectError(await request("GET", "/v1/grants"), 401, "UNAUTHORIZED");
    expectError(await request("GET", "/v1/grants/received"), 401, "UNAUTHORIZED");
    const w = newWallet();
    expectError(await w.get("/v1/memories?owner=0xnope"), 422, "VALIDATION_ERROR");
    expectError(await w.get("/v1/memories?owner="), 422, "VALIDATION_ERROR");
    // Naming oneself is the same as naming no one.
    const id = await w.storeNew("my own note about sharing");
    expect((await w.getOk(as(`/v1/memories/${id}`, w))).id).toBe(id);
    expect((await w.getOk(as("/v1/namespaces", w.address.toLowerCase()))).total).toBe(1);
  });
});
