/** Sharing tests' helpers: grants, and a path that names the owner (docs/sharing.md). */
import { expect } from "vitest";
import { type Json, newWallet, type Wallet } from "../../helpers";

/** `path` with `?owner=` naming `owner` (an address, or a wallet). */
export function as(path: string, owner: { address: string } | string): string {
  const address = typeof owner === "string" ? owner : owner.address;
  return `${path}${path.includes("?") ? "&" : "?"}owner=${address}`;
}

/** `owner` grants `grantee` `permission` on `namespace` (201 new, 200 changed). */
export async function grant(
  owner: Wallet,
  grantee: Wallet,
  namespace: string,
  permission: "read" | "write",
): Promise<Json> {
  const res = await owner.post("/v1/grants", { grantee: grantee.address, namespace, permission });
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  return res.body;
}

/**
 * A new owner, a new wallet the owner grants `permission` on `namespace`, and the id of the
 * owner's new memory there (`memory`, a store body), stored before the grant.
 */
export async function sharedMemory(
  namespace: string,
  permission: "read" | "write",
  { content, ...fields }: { content: string } & Record<string, unknown>,
): Promise<[owner: Wallet, grantee: Wallet, id: string]> {
  const owner = newWallet();
  const grantee = newWallet();
  const id = await owner.storeNew(content, { ...fields, namespace });
  await grant(owner, grantee, namespace, permission);
  return [owner, grantee, id];
}

/**
 * A new owner with a memory in "ops" (`crane`) and one in "hr", and a new agent the owner
 * grants write on "ops" alone, after both were stored.
 */
export async function opsSharedHrNot(): Promise<{ owner: Wallet; agent: Wallet; crane: string }> {
  const owner = newWallet();
  const agent = newWallet();
  const crane = await owner.storeNew("The harbour crane is serviced in April", {
    namespace: "ops",
  });
  await owner.storeNew("The harbour master's salary is confidential", { namespace: "hr" });
  await grant(owner, agent, "ops", "write");
  return { owner, agent, crane };
}

export async function revoke(owner: Wallet, grantee: Wallet, namespace: string): Promise<void> {
  const res = await owner.del(`/v1/grants?grantee=${grantee.address}&namespace=${namespace}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A body without what differs between two equal answers: request ids and clock times. */
export function comparable(body: Json): Json {
  return JSON.parse(
    JSON.stringify(body, (key, value) =>
      key === "request_id" || key === "reset_at" ? undefined : value,
    ),
  );
}
