/**
 * Sign-in-with-x (x402's CAIP-122 extension, SIWE messages for EVM wallets) as a wallet
 * identity beside x-wallet-auth: the SIGN-IN-WITH-X header identifies the wallet on any
 * route; 402 answers carry a challenge a client can sign with @x402/extensions; and a wrong
 * domain, an expired or too old message, a replayed nonce, another chain, a bad signature or
 * a malformed header are each a 401 in the documented error shape.
 */
import { env } from "cloudflare:workers";
import {
  type CompleteSIWxInfo,
  createSIWxMessage,
  createSIWxPayload,
  encodeSIWxHeader,
  type SIWxExtension,
} from "@x402/extensions/sign-in-with-x";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { expectError, newWallet, request, uniqueText } from "../helpers";
import { exhaustAllowance, requiredOf, workerWith } from "./chain";

const ORIGIN = "http://memory.test";
/** The suite's Worker takes payments on Base (the default): sign-in is for that chain. */
const NETWORK = "eip155:8453";

const newAccount = () => privateKeyToAccount(generatePrivateKey());
const nonce = () => crypto.randomUUID().replaceAll("-", "");
const iso = (offsetSeconds: number) => new Date(Date.now() + offsetSeconds * 1000).toISOString();

/** A message for `path`, as the 402 challenge would describe it, with `changes` applied. */
function messageFor(path: string, changes: Partial<CompleteSIWxInfo> = {}): CompleteSIWxInfo {
  return {
    domain: "memory.test",
    uri: `${ORIGIN}${path}`,
    version: "1",
    nonce: nonce(),
    issuedAt: iso(-5),
    expirationTime: iso(295),
    chainId: NETWORK,
    type: "eip191",
    ...changes,
  };
}

/** The SIGN-IN-WITH-X header of `info` signed by `signer` (claiming to be `address`). */
async function signIn(
  info: CompleteSIWxInfo,
  signer: PrivateKeyAccount,
  address: string = signer.address,
): Promise<Record<string, string>> {
  const signature = await signer.signMessage({ message: createSIWxMessage(info, address) });
  return { "sign-in-with-x": encodeSIWxHeader({ ...info, address, signature }) };
}

const status = (headers: Record<string, string>) =>
  request("GET", "/v1/free-tier/status", { headers });

describe("SIGN-IN-WITH-X identifies the wallet", () => {
  it("on free and paid routes, as the same wallet x-wallet-auth names", async () => {
    const w = newWallet();
    const own = await status(await signIn(messageFor("/v1/free-tier/status"), w.account));
    expect(own.status).toBe(200);
    expect(own.body.wallet).toBe(w.address.toLowerCase());

    const content = uniqueText("stored after signing in");
    const stored = await request("POST", "/v1/store", {
      body: { content },
      headers: await signIn(messageFor("/v1/store"), w.account),
    });
    expect(stored.status).toBe(201);
    // The same tenant: the wallet header sees the memory, and the free call was counted.
    expect((await w.get(`/v1/memories/${stored.body.id}`)).body.content).toBe(content);
    expect((await w.get("/v1/free-tier/status")).body.free_tier_used).toBe(1);
  });

  it("signs the challenge of a 402 with the package's client", async () => {
    const w = newWallet();
    await exhaustAllowance(w.address);
    const required = requiredOf(await w.post("/v1/store", { content: "x" }));
    const challenge = required.extensions?.["sign-in-with-x"] as SIWxExtension;
    expect(challenge.supportedChains).toEqual([{ chainId: NETWORK, type: "eip191" }]);
    expect(challenge.info).toMatchObject({
      domain: "memory.test",
      uri: `${ORIGIN}/v1/store`,
      version: "1",
      resources: [`${ORIGIN}/v1/store`],
    });
    expect(challenge.info.nonce).toMatch(/^[0-9a-f]{32}$/);
    const issued = Date.parse(challenge.info.issuedAt);
    expect(Math.abs(issued - Date.now())).toBeLessThan(60_000);
    expect(Date.parse(challenge.info.expirationTime ?? "") - issued).toBe(300_000);

    const payload = await createSIWxPayload(
      { ...challenge.info, chainId: NETWORK, type: "eip191" },
      w.account,
      `${ORIGIN}/v1/store`,
    );
    const res = await status({ "sign-in-with-x": encodeSIWxHeader(payload) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ wallet: w.address.toLowerCase(), free_tier_used: 100 });
  });
});

describe("SIGN-IN-WITH-X refusals: 401", () => {
  const refused = async (headers: Record<string, string>, reason: RegExp) => {
    const res = await status(headers);
    const error = expectError(res, 401, "UNAUTHORIZED");
    expect(error.message).toMatch(reason);
    return error;
  };

  it("a replayed message (its nonce is accepted once)", async () => {
    const headers = await signIn(messageFor("/v1/free-tier/status"), newAccount());
    expect((await status(headers)).status).toBe(200);
    await refused(headers, /nonce already used/);
    // The nonce is the signer's: the same nonce in a new message is refused too.
    const again = newAccount();
    const n = nonce();
    expect((await status(await signIn(messageFor("/", { nonce: n }), again))).status).toBe(200);
    await refused(await signIn(messageFor("/v1", { nonce: n }), again), /nonce already used/);
  });

  it("an expired message, or one issued too long ago or in the future", async () => {
    const a = newAccount();
    await refused(
      await signIn(messageFor("/", { issuedAt: iso(-60), expirationTime: iso(-1) }), a),
      /expired/,
    );
    await refused(
      await signIn(messageFor("/", { issuedAt: iso(-301), expirationTime: iso(600) }), a),
      /too old/,
    );
    await refused(await signIn(messageFor("/", { issuedAt: iso(30) }), a), /in the future/);
    await refused(await signIn(messageFor("/", { notBefore: iso(60) }), a), /not yet valid/);
  });

  it("another domain or origin", async () => {
    const a = newAccount();
    await refused(
      await signIn(messageFor("/", { domain: "evil.test", uri: "http://evil.test/" }), a),
      /Domain mismatch/,
    );
    await refused(await signIn(messageFor("/", { uri: "https://memory.test/" }), a), /URI/);
  });

  it("another chain, or a non-EVM signature type", async () => {
    const a = newAccount();
    await refused(
      await signIn(messageFor("/", { chainId: "eip155:1" }), a),
      /chain eip155:1 .* is not accepted; sign for eip155:8453/,
    );
    await refused(await signIn(messageFor("/", { chainId: "eip155:84532" }), a), /is not accepted/);
    const solana = { ...messageFor("/"), chainId: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" };
    const header = encodeSIWxHeader({
      ...solana,
      type: "ed25519",
      address: "BSmWDgE9ex6dZYbiTsJGcwMEgFp8q4aWh92hdErQPeVW",
      signature: "1111",
    });
    await refused({ "sign-in-with-x": header }, /is not accepted/);
  });

  it("a bad signature, without using up the nonce", async () => {
    const owner = newAccount();
    const info = messageFor("/v1/free-tier/status");
    // Signed by another key while claiming the owner's address.
    await refused(await signIn(info, newAccount(), owner.address), /Signature verification failed/);
    // A tampered message: the signature was over another statement.
    const signed = await signIn(info, owner);
    const payload = JSON.parse(atob(signed["sign-in-with-x"] ?? ""));
    const tampered = encodeSIWxHeader({ ...payload, statement: "something else" });
    await refused({ "sign-in-with-x": tampered }, /Signature verification failed/);
    // The refused attempts did not take the nonce: the owner's own message still works.
    expect((await status(signed)).status).toBe(200);
  });

  it("a malformed header", async () => {
    await refused({ "sign-in-with-x": "not base64!" }, /^SIGN-IN-WITH-X: Invalid SIWX header/);
    await refused({ "sign-in-with-x": btoa('{"domain":"memory.test"}') }, /Invalid SIWX header/);
    // SIWE requires 8+ alphanumerics (a client cannot even form the message otherwise).
    const shortNonce = encodeSIWxHeader({
      ...messageFor("/", { nonce: "short" }),
      address: newAccount().address,
      signature: `0x${"11".repeat(65)}`,
    });
    await refused({ "sign-in-with-x": shortNonce }, /nonce must be 8-128 letters and digits/);
    const notAddress = encodeSIWxHeader({ ...messageFor("/"), address: "0x12", signature: "0x" });
    await refused({ "sign-in-with-x": notAddress }, /not an EVM address/);
  });

  it("every sign-in when metering is off: nonces could not be kept", async () => {
    const fetch = workerWith({ ...env, METERING: "off" } as Env);
    const res = await request("GET", "/v1/free-tier/status", {
      headers: await signIn(messageFor("/v1/free-tier/status"), newAccount()),
      fetch,
    });
    const error = expectError(res, 401, "UNAUTHORIZED");
    expect(error.message).toMatch(/keeps no nonces/);
  });
});
