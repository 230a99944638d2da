/**
 * What every answer of the Worker carries whoever asks: the service's own request id (never a
 * client's header), and headers that keep a browser from sniffing, framing or leaking it.
 */
import { describe, expect, it } from "vitest";
import { newWallet, request } from "./helpers";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("request ids", () => {
  it("are the service's own: a client's cf-ray or x-request-id is never echoed", async () => {
    const injected = "<script>alert(1)</script>";
    const res = await request("GET", "/v1/nowhere", {
      headers: { "cf-ray": injected, "x-request-id": injected },
    });
    expect(res.status).toBe(401);
    const id = res.headers.get("x-request-id") ?? "";
    expect(id).toMatch(UUID);
    expect(res.body.error.request_id).toBe(id);
    expect(JSON.stringify(res.body)).not.toContain("script");
  });

  it("differ from request to request", async () => {
    const a = await request("GET", "/health", { headers: { "cf-ray": "same" } });
    const b = await request("GET", "/health", { headers: { "cf-ray": "same" } });
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});

describe("security headers", () => {
  const expectHardened = (headers: Headers) => {
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
    expect(headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  };

  it("on /docs: no framing, no sniffing, scripts only from this origin", async () => {
    const res = await request("GET", "/docs");
    expect(res.status).toBe(200);
    expectHardened(res.headers);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  it("on JSON answers, successes and errors alike: nothing may load or run", async () => {
    const w = newWallet();
    for (const res of [
      await request("GET", "/health"),
      await request("GET", "/openapi.json"),
      await w.call("GET", "/v1/memories"),
      await w.call("POST", "/v1/store", { content: "" }),
      await request("GET", "/v1/memories"),
    ]) {
      expectHardened(res.headers);
      expect(res.headers.get("content-security-policy")).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
  });
});
