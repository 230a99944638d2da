/**
 * The ways the Worker reaches Postgres (Env.DATABASE_TRANSPORT): the suite's Worker uses
 * Workers TCP sockets (`tcp`, as npm run dev does); production reaches Neon over its
 * WebSocket endpoint (`websocket`), which here goes through the local WebSocket proxy, or
 * through a Hyperdrive binding (`tcp` to its connection string). The
 * same calls, with a transaction, overlapping requests and a refused connection, over both.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../worker/env";
import { newWallet, uniqueText } from "./helpers";
import { workerWith } from "./worker-with";

const NOTHING_LISTENS = "postgres://postgres:postgres@127.0.0.1:9/x";

const transports: Array<[string, Env]> = [
  ["tcp", { ...env, DATABASE_TRANSPORT: "tcp" }],
  ["websocket", { ...env, DATABASE_TRANSPORT: "websocket" }],
  // A Hyperdrive binding wins over DATABASE_URL and its transport (the URL here leads nowhere):
  // its connection string is reached over tcp, as `wrangler dev` hands over its
  // localConnectionString.
  [
    "hyperdrive",
    {
      ...env,
      DATABASE_URL: NOTHING_LISTENS,
      DATABASE_TRANSPORT: "websocket",
      HYPERDRIVE: { connectionString: env.DATABASE_URL ?? "" },
    },
  ],
];

describe.each(transports)("the %s transport", (name, bindings) => {
  it("stores in a transaction, lists, recalls, patches and deletes", async () => {
    const w = newWallet(workerWith(bindings));
    const text = uniqueText(`over ${name}`);
    const stored = await w.post("/v1/store", { content: text, tags: [name] });
    expect(stored.status).toBe(201);
    const id = stored.body.id as string;
    const list = await w.getOk(`/v1/memories?tags=${name}`);
    expect(list.memories.map((m: { id: string }) => m.id)).toEqual([id]);
    const recalled = await w.post("/v1/recall", { query: text });
    expect(recalled.body.memories[0].id).toBe(id);
    expect((await w.patch(`/v1/memories/${id}`, { importance: 0.9 })).status).toBe(200);
    expect((await w.del(`/v1/memories/${id}`)).status).toBe(200);
    expect((await w.get(`/v1/memories/${id}`)).status).toBe(404);
  });

  it("serves overlapping requests, each on connections of its own", async () => {
    const w = newWallet(workerWith(bindings));
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) => w.store(uniqueText(`${name} ${i}`))),
    );
    const counts = await Promise.all(
      Array.from({ length: 6 }, () => w.getOk("/v1/memories/count")),
    );
    expect(new Set(ids).size).toBe(12);
    for (const c of counts) expect(c.count).toBe(12);
  });

  it("answers 503 with Retry-After when nothing listens at the database's address", async () => {
    const down: Env = {
      ...bindings,
      DATABASE_URL: NOTHING_LISTENS,
      ...(bindings.HYPERDRIVE ? { HYPERDRIVE: { connectionString: NOTHING_LISTENS } } : {}),
    };
    const w = newWallet(workerWith(down));
    // A query, and a transaction (whose connection is taken from the pool by itself).
    for (const res of [
      await w.get("/v1/memories"),
      await w.post("/v1/store", { content: uniqueText() }),
      await w.post("/v1/store/batch", { memories: [{ content: uniqueText() }] }),
    ]) {
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("SERVICE_UNAVAILABLE");
      expect(res.headers.get("retry-after")).toBe("5");
    }
  });
});

/**
 * A server that asks for a cleartext password (test/password-front.ts, as Neon's endpoint and
 * PgBouncer with auth_type = plain): with DATABASE_PIPELINE_CONNECT=password the driver sends
 * the password with the start-up, a round trip less per connection; without it, it waits to be
 * asked. Either way every request works.
 */
describe("a server that asks for a password", () => {
  const front = JSON.parse(env.PASSWORD_FRONT) as { url: string; statsUrl: string };
  const stats = async () =>
    (await (await fetch(`${front.statsUrl}/stats`)).json()) as {
      connections: number;
      pipelined: number;
    };
  const calls = async (bindings: Env) => {
    const w = newWallet(workerWith(bindings));
    const id = await w.store(uniqueText("behind a password"));
    expect((await w.patch(`/v1/memories/${id}`, { importance: 0.9 })).status).toBe(200);
    expect((await w.get(`/v1/memories/${id}`)).status).toBe(200);
  };

  it.each([
    ["tcp", { DATABASE_TRANSPORT: "tcp" }],
    ["websocket", { DATABASE_TRANSPORT: "websocket" }],
  ])("over %s, pipelines the password when asked to, and only then", async (_name, transport) => {
    const base: Env = { ...env, ...transport, DATABASE_URL: front.url };
    const before = await stats();
    await calls({ ...base, DATABASE_PIPELINE_CONNECT: "password" });
    const pipelined = await stats();
    expect(pipelined.connections).toBeGreaterThan(before.connections);
    expect(pipelined.pipelined - before.pipelined).toBe(pipelined.connections - before.connections);
    await calls(base);
    const asked = await stats();
    expect(asked.connections).toBeGreaterThan(pipelined.connections);
    expect(asked.pipelined).toBe(pipelined.pipelined);
  });
});
