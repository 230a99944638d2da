/** The Meter's record of payment nonces: claimed once, released, settled, pruned on expiry. */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { meterOf } from "./chain";

describe("Meter payment nonces", () => {
  const NOW = 2_000_000_000;
  const nonce = () => `0x${crypto.randomUUID().replaceAll("-", "").padEnd(64, "a")}`;

  it("claims a nonce once, until it is released; a settled one stays taken", async () => {
    const stub = meterOf(`test-nonces-${crypto.randomUUID()}`);
    const a = nonce();
    expect(await stub.claimPayment(a, NOW + 300, NOW)).toEqual({ claimed: true });
    expect(await stub.claimPayment(a.toUpperCase().replace("0X", "0x"), NOW + 300, NOW)).toEqual({
      claimed: false,
      state: "pending",
    });
    await stub.releasePayment(a);
    expect(await stub.claimPayment(a, NOW + 300, NOW)).toEqual({ claimed: true });
    await stub.settlePayment(a);
    expect(await stub.claimPayment(a, NOW + 300, NOW)).toEqual({
      claimed: false,
      state: "settled",
    });
    await stub.releasePayment(a); // a settled payment is never released
    expect(await stub.claimPayment(a, NOW + 300, NOW + 10)).toMatchObject({ claimed: false });
  });

  it("lets exactly one of 50 concurrent claims of a nonce win", async () => {
    const stub = meterOf(`test-nonces-${crypto.randomUUID()}`);
    const a = nonce();
    const claims = await Promise.all(
      Array.from({ length: 50 }, () => stub.claimPayment(a, NOW + 300, NOW)),
    );
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
  });

  it("forgets nonces whose authorization has expired", async () => {
    const stub = meterOf(`test-nonces-${crypto.randomUUID()}`);
    const a = nonce();
    const b = nonce();
    await stub.claimPayment(a, NOW + 60, NOW);
    await stub.settlePayment(a);
    await stub.claimPayment(b, NOW + 600, NOW);
    // A claim after `a` expired prunes it; `b` is still held.
    await stub.claimPayment(nonce(), NOW + 900, NOW + 61);
    const rows = await runInDurableObject(stub, (_instance, state) =>
      state.storage.sql.exec<{ nonce: string }>("SELECT nonce FROM payment_nonce").toArray(),
    );
    expect(rows.map((r) => r.nonce)).not.toContain(a);
    expect(rows.map((r) => r.nonce)).toContain(b);
    expect(await stub.claimPayment(a, NOW + 900, NOW + 61)).toEqual({ claimed: true });
  });
});
