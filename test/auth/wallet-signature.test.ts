/** Wallet signature checks of the x-wallet-auth header (worker/auth/wallet.ts). */
import { recoverMessageAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  AUTH_TOLERANCE_SECONDS,
  verifyWalletHeader,
  verifyWalletSignature,
} from "../../worker/auth/wallet";
import { highSTwin } from "./fixtures";

describe("auth: verifyWalletSignature", () => {
  const account = privateKeyToAccount(
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  );
  const other = privateKeyToAccount(
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  );
  const PREFIX = "service-auth";
  const TS = 1_700_000_000;
  const sign = (ts = TS, prefix = PREFIX, by = account) =>
    by.signMessage({ message: `${prefix}:${ts}` });

  it("accepts a valid signature and returns the wallet in lower case", async () => {
    const sig = await sign();
    expect(await verifyWalletSignature(account.address, TS, sig, PREFIX, TS)).toEqual({
      ok: true,
      wallet: account.address.toLowerCase(),
    });
    // Lower-case address and a signature without 0x are accepted too.
    expect(
      await verifyWalletSignature(account.address.toLowerCase(), TS, sig.slice(2), PREFIX, TS),
    ).toEqual({ ok: true, wallet: account.address.toLowerCase() });
  });

  it("allows 300 seconds of clock difference either way, and not one more", async () => {
    expect(AUTH_TOLERANCE_SECONDS).toBe(300);
    const sig = await sign();
    const at = (now: number) => verifyWalletSignature(account.address, TS, sig, PREFIX, now);
    expect((await at(TS + 300)).ok).toBe(true);
    expect((await at(TS - 300)).ok).toBe(true);
    const old = await at(TS + 301);
    expect(old).toEqual({ ok: false, reason: "Timestamp expired or too far in the future" });
    const future = await at(TS - 301);
    expect(future).toEqual({ ok: false, reason: "Timestamp expired or too far in the future" });
  });

  it("rejects a signature of another message, prefix or wallet", async () => {
    const bad = { ok: false, reason: "Invalid signature" };
    expect(
      await verifyWalletSignature(account.address, TS, await sign(TS + 1), PREFIX, TS),
    ).toEqual(bad);
    expect(
      await verifyWalletSignature(account.address, TS, await sign(TS, "memoclaw-auth"), PREFIX, TS),
    ).toEqual(bad);
    expect(
      await verifyWalletSignature(account.address, TS, await sign(TS, PREFIX, other), PREFIX, TS),
    ).toEqual(bad);
    // The configured prefix is what is checked.
    expect(
      (
        await verifyWalletSignature(
          account.address,
          TS,
          await sign(TS, "memoclaw-auth"),
          "memoclaw-auth",
          TS,
        )
      ).ok,
    ).toBe(true);
  });

  it("rejects malformed input without throwing", async () => {
    const sig = await sign();
    expect(await verifyWalletSignature("0x1234", TS, sig, PREFIX, TS)).toEqual({
      ok: false,
      reason: "Invalid wallet address",
    });
    expect(await verifyWalletSignature(account.address, 1.5, sig, PREFIX, 1)).toEqual({
      ok: false,
      reason: "Invalid timestamp",
    });
    expect(await verifyWalletSignature(account.address, TS, "0xdeadbeef", PREFIX, TS)).toEqual({
      ok: false,
      reason: "Invalid signature format",
    });
    // Right length, but not a valid signature (bad recovery byte and flipped bits).
    const mangled = `${sig.slice(0, 10)}${sig[10] === "0" ? "1" : "0"}${sig.slice(11, -2)}ff`;
    const res = await verifyWalletSignature(account.address, TS, mangled, PREFIX, TS);
    expect(res.ok).toBe(false);
  });

  it("rejects the high-s twin of a valid signature (EIP-2), though it recovers the same wallet", async () => {
    const sig = await sign();
    const twin = highSTwin(sig);
    expect(twin).not.toBe(sig);
    // The twin is a valid ECDSA signature of the same message by the same key…
    expect(await recoverMessageAddress({ message: `${PREFIX}:${TS}`, signature: twin })).toBe(
      account.address,
    );
    // …and only the low-s form is accepted.
    expect(await verifyWalletSignature(account.address, TS, twin, PREFIX, TS)).toEqual({
      ok: false,
      reason:
        "Invalid signature: s is in the upper half of the curve order (EIP-2: sign with low s)",
    });
    expect((await verifyWalletSignature(account.address, TS, sig, PREFIX, TS)).ok).toBe(true);
  });

  it("verifyWalletHeader parses address:timestamp:signature", async () => {
    const now = Math.floor(Date.now() / 1000);
    const sig = await sign(now);
    expect(await verifyWalletHeader(`${account.address}:${now}:${sig}`, PREFIX)).toEqual({
      ok: true,
      wallet: account.address.toLowerCase(),
    });
    expect((await verifyWalletHeader(`${account.address}:${now}`, PREFIX)).ok).toBe(false);
    expect((await verifyWalletHeader(`${account.address}:soon:${sig}`, PREFIX)).ok).toBe(false);
    expect((await verifyWalletHeader(`${account.address}:${now - 301}:${sig}`, PREFIX)).ok).toBe(
      false,
    );
  });
});
