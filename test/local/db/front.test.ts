/**
 * Protocol-level tests of the embedded database's front (local/db/front.ts):
 * clients that interleave at the wire level each get their own results, transactions
 * have the database to themselves, and nothing one client leaves behind reaches another.
 */
import { PGlite } from "@electric-sql/pglite";
import { neonConfig, Pool } from "@neondatabase/serverless";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ws from "ws";
import { PGliteFront } from "../../../local/db/front";
import { startWsProxy, type WsProxy } from "../../../local/db/ws-proxy";
import { m, RawClient } from "../../node/raw-client";

interface Served {
  db: PGlite;
  front: PGliteFront;
  port: number;
}

async function serve(
  opts: { lockTimeoutMs?: number; idleInTransactionMs?: number } = {},
): Promise<Served> {
  const db = await PGlite.create();
  const front = new PGliteFront({ db, ...opts, sessionDefaults: "SET search_path = public" });
  const port = await front.start();
  return { db, front, port };
}

async function shut(s: Served): Promise<void> {
  await s.front.stop();
  await s.db.close();
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `test` with two clients of the server at `port`, and ends both afterwards, failed or not. */
async function withTwoClients(port: number, test: (a: RawClient, b: RawClient) => Promise<void>) {
  const a = await RawClient.connect(port);
  const b = await RawClient.connect(port);
  try {
    await test(a, b);
  } finally {
    a.end();
    b.end();
  }
}

describe("embedded Postgres front", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
    const c = await RawClient.connect(s.port);
    await c.query("CREATE TABLE items (id int PRIMARY KEY, owner text NOT NULL)");
    c.end();
  });
  afterAll(() => shut(s));

  it("runs a client's Parse/Bind/Execute as one unit even when another client's arrives in between", () =>
    withTwoClients(s.port, async (a, b) => {
      // A starts an extended-protocol run and stops before Execute/Sync.
      a.send(m.parse("", "SELECT 'a:' || $1::text"), m.bind("", "", ["one"]));
      await settle(20);
      // B runs a whole different statement on the unnamed statement and portal.
      b.send(
        m.parse("", "SELECT 'b:' || $1::text"),
        m.bind("", "", ["two"]),
        m.execute(),
        m.sync(),
      );
      const fromB = await b.reply();
      a.send(m.execute(), m.sync());
      const fromA = await a.reply();
      expect(fromB).toMatchObject({ rows: [["b:two"]], errors: [] });
      expect(fromA).toMatchObject({ rows: [["a:one"]], errors: [] });
    }));

  it("holds the database for a client between Flush and Sync; the other waits its turn", () =>
    withTwoClients(s.port, async (a, b) => {
      a.send(m.parse("", "SELECT 'a'"), m.bind("", ""), m.flush());
      await settle(20);
      b.send(m.parse("", "SELECT 'b'"), m.bind("", ""), m.execute(), m.sync());
      // B's unit cannot run while A's run is open.
      await settle(50);
      const order: string[] = [];
      const bDone = b.reply().then((r) => {
        order.push("b");
        return r;
      });
      a.send(m.execute(), m.sync());
      const fromA = await a.reply();
      order.push("a");
      const fromB = await bDone;
      expect(fromA.rows).toEqual([["a"]]);
      expect(fromB.rows).toEqual([["b"]]);
      expect(order).toEqual(["a", "b"]);
    }));

  it("gives each client its own named prepared statements", () =>
    withTwoClients(s.port, async (a, b) => {
      a.send(m.parse("s1", "SELECT 'from a'"), m.sync());
      b.send(m.parse("s1", "SELECT 'from b'"), m.sync());
      expect((await a.reply()).errors).toEqual([]);
      expect((await b.reply()).errors).toEqual([]);
      b.send(m.bind("", "s1"), m.execute(), m.sync());
      a.send(m.bind("", "s1"), m.execute(), m.sync());
      expect((await a.reply()).rows).toEqual([["from a"]]);
      expect((await b.reply()).rows).toEqual([["from b"]]);
    }));

  it("never lets a client bind another client's unnamed statement", () =>
    withTwoClients(s.port, async (a, b) => {
      a.send(m.parse("", "SELECT 'secret of a'"), m.sync());
      await a.reply();
      b.send(m.bind("", ""), m.execute(), m.sync());
      const fromB = await b.reply();
      expect(fromB.rows).toEqual([]);
      expect(fromB.errors[0]?.code).toBe("26000"); // invalid_sql_statement_name
    }));

  it("keeps one client's SET out of another's session", () =>
    withTwoClients(s.port, async (a, b) => {
      await a.query("SET statement_timeout = '1234ms'");
      expect((await b.query("SHOW statement_timeout")).rows).toEqual([["0"]]);
      expect((await a.query("SHOW statement_timeout")).rows).toEqual([["1234ms"]]);
      expect((await b.query("SHOW search_path")).rows).toEqual([["public"]]);
    }));

  it("gives a transaction the database until it commits; others wait and then see its work", () =>
    withTwoClients(s.port, async (a, b) => {
      await a.query("BEGIN");
      await a.query("INSERT INTO items VALUES (1, 'a')");
      b.send(m.query("SELECT count(*) FROM items WHERE id = 1"));
      expect(await b.answersWithin(100)).toBe(false);
      expect((await a.query("SELECT owner FROM items WHERE id = 1")).rows).toEqual([["a"]]);
      expect((await a.query("COMMIT")).status).toBe("I");
      expect((await b.reply()).rows).toEqual([["1"]]);
    }));

  it("keeps a failed transaction with its client until it rolls back", () =>
    withTwoClients(s.port, async (a, b) => {
      await a.query("BEGIN");
      const failed = await a.query("SELECT 1/0");
      expect(failed.status).toBe("E");
      b.send(m.query("SELECT 'b ran'"));
      expect(await b.answersWithin(100)).toBe(false);
      expect((await a.query("ROLLBACK")).status).toBe("I");
      expect((await b.reply()).rows).toEqual([["b ran"]]);
    }));

  it("rolls back the transaction of a client that disconnects, and frees the database", async () => {
    const a = await RawClient.connect(s.port);
    await a.query("BEGIN");
    await a.query("INSERT INTO items VALUES (2, 'lost')");
    a.socket.destroy();
    const b = await RawClient.connect(s.port);
    const seen = await b.query("SELECT count(*) FROM items WHERE id = 2");
    expect(seen).toMatchObject({ rows: [["0"]], status: "I" });
    // And a disconnect in the middle of an extended-protocol run inside a transaction.
    const c = await RawClient.connect(s.port);
    await c.query("BEGIN");
    c.send(
      m.parse("", "INSERT INTO items VALUES (3, 'lost')"),
      m.bind("", ""),
      m.execute(),
      m.flush(),
    );
    await settle(30);
    c.socket.destroy();
    expect((await b.query("SELECT count(*) FROM items WHERE id = 3")).rows).toEqual([["0"]]);
    b.end();
  });

  it("answers 200 concurrent driver clients, each with only its own rows", async () => {
    const proxy: WsProxy = await startWsProxy(0);
    neonConfig.webSocketConstructor = ws;
    neonConfig.wsProxy = (host, port) => `127.0.0.1:${proxy.port}/v2?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
    const url = `postgres://postgres:postgres@127.0.0.1:${s.port}/postgres`;
    const wrong: string[] = [];
    try {
      await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const pool = new Pool({ connectionString: url, max: 2 });
          try {
            const client = await pool.connect();
            try {
              await client.query("BEGIN");
              await client.query("INSERT INTO items VALUES ($1, $2)", [1000 + i, `owner-${i}`]);
              await client.query("COMMIT");
            } finally {
              client.release();
            }
            const [mine, echo] = await Promise.all([
              pool.query("SELECT id, owner FROM items WHERE owner = $1", [`owner-${i}`]),
              pool.query("SELECT $1::int + 0 AS n", [i]),
            ]);
            if (mine.rows.length !== 1 || mine.rows[0].id !== 1000 + i) wrong.push(`rows of ${i}`);
            if (echo.rows[0]?.n !== i) wrong.push(`echo of ${i}`);
          } finally {
            await pool.end();
          }
        }),
      );
    } finally {
      await proxy.close();
    }
    expect(wrong).toEqual([]);
    const c = await RawClient.connect(s.port);
    expect((await c.query("SELECT count(*) FROM items WHERE id >= 1000")).rows).toEqual([["200"]]);
    c.end();
  });
});

describe("embedded Postgres front timeouts", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ lockTimeoutMs: 300, idleInTransactionMs: 1500 });
  });
  afterAll(() => shut(s));

  it("fails a unit that waits too long for another transaction with 55P03, and the connection lives on", () =>
    withTwoClients(s.port, async (a, b) => {
      await a.query("BEGIN");
      const refused = await b.query("SELECT 1");
      expect(refused.errors[0]?.code).toBe("55P03");
      expect(refused.status).toBe("I");
      // An extended-protocol unit is refused too, and the messages up to its Sync are skipped.
      b.send(m.parse("", "SELECT 2"), m.bind("", ""), m.flush());
      await settle(400);
      b.send(m.execute(), m.sync());
      const skipped = await b.reply();
      expect(skipped.errors[0]?.code).toBe("55P03");
      expect(skipped.rows).toEqual([]);
      await a.query("COMMIT");
      expect((await b.query("SELECT 3")).rows).toEqual([["3"]]);
    }));

  it("rolls back and disconnects a client idle in a transaction, freeing the database", async () => {
    const a = await RawClient.connect(s.port);
    await a.query("BEGIN");
    await a.query("CREATE TABLE idle_probe (x int)");
    await settle(1000);
    expect(a.closed).toBe(false);
    await settle(1000);
    expect(a.closed).toBe(true);
    // It was told why before the connection closed.
    expect((await a.reply()).errors[0]?.code).toBe("25P03");
    const b = await RawClient.connect(s.port);
    const probe = await b.query("SELECT to_regclass('idle_probe') IS NULL");
    expect(probe.rows).toEqual([["t"]]);
    b.end();
  });
});
