import { describe, expect, it } from "vitest";
import { newWallet, request } from "./helpers";

describe("smoke", () => {
  it("health and store", async () => {
    const h = await request("GET", "/health");
    expect(h.status).toBe(200);
    const w = newWallet();
    const r = await w.post("/v1/store", { content: "hello world" });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const g = await w.get(`/v1/memories/${r.body.id}`);
    expect(g.status).toBe(200);
    expect(g.body.content).toBe("hello world");
  });
});
