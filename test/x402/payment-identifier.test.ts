/**
 * x402's payment-identifier extension as an idempotency key, end to end on the local chain:
 * a paid request retried with the same identifier gets the same answer and is settled once;
 * the identifier with another request is a 409; duplicates racing each other settle once; a
 * request that fails without paying frees its identifier. Plus the Meter's claims directly.
 */
import { runInDurableObject } from "cloudflare:test";
import {
  declarePaymentIdentifierExtension,
  generatePaymentId,
} from "@x402/extensions/payment-identifier";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../worker/errors";
import { replayOf } from "../../worker/payment/payment-id";
import { expectError, uniqueText } from "../helpers";
import {
  balances,
  expectUnchanged,
  meterOf,
  newPayer,
  type Payer,
  paymentHeader,
  requiredOf,
  storeWithPayment,
  transfersFrom,
} from "./chain";

/** The 402 of a store call, then a payment for it carrying `id`: its header. */
const paymentFor = async (p: Payer, body: unknown, id: string) =>
  (await storeWithPayment(p, body, id)).headers;

describe("payment-identifier: one answer and one charge per identifier", () => {
  it("is declared (not required) by every 402", async () => {
    const p = await newPayer();
    const required = requiredOf(await p.call("POST", "/v1/store", { content: "x" }));
    expect(required.extensions?.["payment-identifier"]).toEqual(
      declarePaymentIdentifierExtension(false),
    );
  });

  it("answers a retry with the first answer: one memory, one transfer on chain", async () => {
    const p = await newPayer();
    const body = { content: uniqueText("paid once") };
    const id = generatePaymentId();
    const before = await balances(p.address);
    const first = await paymentFor(p, body, id);

    const paid = await p.call("POST", "/v1/store", body, first);
    expect(paid.status).toBe(201);
    const receipt = paid.headers.get("payment-response");
    expect(receipt).toBeTruthy();
    const afterFirst = await balances(p.address);
    expect(afterFirst.payer).toBe(before.payer - 5000n);
    // Other test files pay the same payTo meanwhile: at least this payment arrived.
    expect(afterFirst.payTo >= before.payTo + 5000n).toBe(true);

    // The same request and payment again (a client that lost the answer)...
    const again = await p.call("POST", "/v1/store", body, first);
    // ...and once more with a fresh authorization under the same identifier.
    const fresh = await paymentFor(p, body, id);
    const reSigned = await p.call("POST", "/v1/store", body, fresh);
    for (const retry of [again, reSigned]) {
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(paid.body);
      expect(retry.headers.get("payment-response")).toBe(receipt);
    }
    expectUnchanged(afterFirst, await balances(p.address));
    expect(await transfersFrom(p.address)).toBe(1);
    const list = await p.call("GET", "/v1/memories");
    expect(list.body.total).toBe(1);
  });

  it("refuses the identifier with another request: 409 CONFLICT, nothing charged", async () => {
    const p = await newPayer();
    const id = generatePaymentId();
    const body = { content: uniqueText("the first use") };
    expect((await p.call("POST", "/v1/store", body, await paymentFor(p, body, id))).status).toBe(
      201,
    );
    const afterFirst = await balances(p.address);

    const other = { content: uniqueText("another request") };
    const reused = await p.call("POST", "/v1/store", other, await paymentFor(p, other, id));
    const error = expectError(reused, 409, "CONFLICT");
    expect(error.details).toEqual({ payment_identifier: id, reason: "identifier_reused" });
    expect(reused.headers.get("payment-response")).toBeNull();
    // Another path with the same body is another request too.
    const recall = requiredOf(await p.call("POST", "/v1/recall", { query: "x" }));
    const onRecall = await p.call(
      "POST",
      "/v1/recall",
      { query: body.content },
      paymentHeader(await p.pay(recall, id)),
    );
    expectError(onRecall, 409, "CONFLICT");
    expectUnchanged(afterFirst, await balances(p.address));
    expect((await p.call("GET", "/v1/memories")).body.total).toBe(1);
  });

  it("settles once when two identical requests race with one identifier", async () => {
    const p = await newPayer();
    const body = { content: uniqueText("raced") };
    const id = generatePaymentId();
    const before = await balances(p.address);
    // Two different authorizations (nonces), one identifier, sent at once.
    const [a, b] = [await paymentFor(p, body, id), await paymentFor(p, body, id)];
    const results = await Promise.all([
      p.call("POST", "/v1/store", body, a),
      p.call("POST", "/v1/store", body, b),
    ]);
    const winner = results.find((r) => r.status === 201);
    expect(winner, JSON.stringify(results.map((r) => r.body))).toBeDefined();
    for (const r of results) {
      // The loser is turned away while the first runs, or gets its answer if it came later.
      if (r.status === 409) expect(r.body.error.details.reason).toBe("in_progress");
      else expect(r.body).toEqual(winner?.body);
    }
    const after = await balances(p.address);
    expect(after.payer).toBe(before.payer - 5000n);
    expect(await transfersFrom(p.address)).toBe(1);
    // Once the first has finished, a retry gets its answer.
    const retry = await p.call("POST", "/v1/store", body, a);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(winner?.body);
    expect((await p.call("GET", "/v1/memories")).body.total).toBe(1);
  });

  it("frees the identifier of a request that failed without paying", async () => {
    const p = await newPayer();
    const id = generatePaymentId();
    const before = await balances(p.address);
    const bad = { content: "" };
    const good = { content: uniqueText("second try") };
    // Invalid input is answered before the charge point: the payment and its id are untouched.
    const failed = await p.call("POST", "/v1/store", bad, await paymentFor(p, good, id));
    expectError(failed, 422, "VALIDATION_ERROR");
    expectUnchanged(before, await balances(p.address));

    // A corrected request may use the identifier: it was not bound to the failed one.
    const paid = await p.call("POST", "/v1/store", good, await paymentFor(p, good, id));
    expect(paid.status).toBe(201);
    expect((await balances(p.address)).payer).toBe(before.payer - 5000n);
  });

  it("refuses a malformed identifier with 402 and the reason", async () => {
    const p = await newPayer();
    const body = { content: uniqueText("bad id") };
    const required = requiredOf(await p.call("POST", "/v1/store", body));
    const payload = await p.pay(required);
    payload.extensions = {
      ...payload.extensions,
      "payment-identifier": { info: { required: false, id: "short!" } },
    };
    const res = await p.call("POST", "/v1/store", body, paymentHeader(payload));
    const error = expectError(res, 402, "PAYMENT_REQUIRED");
    expect(error.details.reason).toMatch(/^payment-identifier id must be 16-128 characters/);
    expect(res.headers.get("payment-required")).toBeTruthy();
  });
});

describe("Meter payment identifiers", () => {
  const NOW = 2_000_000_000;
  const freshMeter = () => meterOf(`test-ids-${crypto.randomUUID()}`);
  const answer = {
    status: 201,
    body: '{"id":"a"}',
    headers: { "content-type": "application/json" },
  };

  it("claims once, replays the kept answer to the same request, refuses another", async () => {
    const meter = freshMeter();
    expect(await meter.claimPaymentId("id-1", "fp-a", NOW + 600, NOW)).toEqual({
      outcome: "claimed",
    });
    expect(await meter.claimPaymentId("id-1", "fp-a", NOW + 600, NOW)).toEqual({
      outcome: "in_progress",
    });
    expect(await meter.claimPaymentId("id-1", "fp-b", NOW + 600, NOW)).toEqual({
      outcome: "conflict",
    });
    await meter.completePaymentId("id-1", answer, NOW + 3600);
    expect(await meter.claimPaymentId("id-1", "fp-a", NOW + 600, NOW + 1)).toEqual({
      outcome: "replay",
      response: answer,
    });
    // A kept answer is never released; it is forgotten once it expires.
    await meter.releasePaymentId("id-1");
    expect((await meter.claimPaymentId("id-1", "fp-b", NOW + 600, NOW + 2)).outcome).toBe(
      "conflict",
    );
    expect(await meter.claimPaymentId("id-1", "fp-b", NOW + 5000, NOW + 3601)).toEqual({
      outcome: "claimed",
    });
  });

  it("frees a released claim, and forgets an abandoned one after its lease", async () => {
    const meter = freshMeter();
    await meter.claimPaymentId("id-2", "fp-a", NOW + 600, NOW);
    await meter.releasePaymentId("id-2");
    expect((await meter.claimPaymentId("id-2", "fp-b", NOW + 600, NOW)).outcome).toBe("claimed");
    expect((await meter.claimPaymentId("id-2", "fp-c", NOW + 1200, NOW + 601)).outcome).toBe(
      "claimed",
    );
    const rows = await runInDurableObject(meter, (_instance, state) =>
      state.storage.sql
        .exec<{ fingerprint: string }>("SELECT fingerprint FROM payment_id")
        .toArray(),
    );
    expect(rows).toEqual([{ fingerprint: "fp-c" }]);
  });

  it("lets exactly one of 30 concurrent claims of an identifier win", async () => {
    const meter = freshMeter();
    const claims = await Promise.all(
      Array.from({ length: 30 }, () => meter.claimPaymentId("id-3", "fp-a", NOW + 600, NOW)),
    );
    expect(claims.filter((c) => c.outcome === "claimed")).toHaveLength(1);
    expect(claims.filter((c) => c.outcome === "in_progress")).toHaveLength(29);
  });

  it("answers 409 when the first answer was too large to keep", () => {
    const replay = () => replayOf("pay_0123456789abcdef", { status: 200, body: null, headers: {} });
    expect(replay).toThrow(ApiError);
    try {
      replay();
    } catch (err) {
      expect(err).toMatchObject({
        code: "CONFLICT",
        details: { reason: "answer_not_kept", status: 200 },
      });
    }
  });
});
