/**
 * Who gets the embedded database next (local/db/lock.ts): background work (the
 * HNSW indexer) in a lane of its own with two thirds of the contended time, short requests
 * first in theirs, never behind more than one background statement, and never holding a
 * write back for long.
 */
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGliteFront } from "../../../local/db/front";
import { DatabaseLock, type Lane } from "../../../local/db/lock";
import { BACKGROUND_MARK } from "../../../worker/db/background";
import { RawClient } from "../../node/raw-client";

/**
 * A lock on a clock the test moves. `take` queues for it (resolving once granted, in the
 * order `order` records); `give` holds it for `ms` more and lets go; `hold` does both.
 */
function harness() {
  let now = 0;
  const lock = new DatabaseLock<string>(() => now);
  const order: string[] = [];
  const take = (conn: string, lane: Lane = "request", transaction = false) =>
    lock.acquire(conn, 60_000, lane, transaction).then((granted) => {
      expect(granted).toBe(true);
      order.push(conn);
    });
  const give = (conn: string, ms: number) => {
    now += ms;
    lock.release(conn);
  };
  const hold = async (conn: string, ms: number, lane: Lane = "request", transaction = false) => {
    await take(conn, lane, transaction);
    give(conn, ms);
  };
  return { order, take, give, hold };
}

/** Lets the lock's dispatch (the event loop's next turn) run. */
const turn = () => new Promise((r) => setImmediate(r));

describe("the embedded database's lock", () => {
  it("lets a short request wait for at most one background statement of a queue", async () => {
    const { order, take, give, hold } = harness();
    await take("writer", "request", true);
    const queued = ["bg1", "bg2", "bg3"].map((c) => hold(c, 60, "background"));
    const recall = hold("recall", 2);
    give("writer", 400);
    await Promise.all([...queued, recall]);
    // Background work is owed time (the writer held it 400 ms), so one of it goes first.
    expect(order).toEqual(["writer", "bg1", "recall", "bg2", "bg3"]);
  });

  it("serves short requests before a waiting write, until the write has waited 0.5 s", async () => {
    const { order, take, give, hold } = harness();
    await take("first", "request", true);
    const write = hold("write", 100, "request", true);
    const early = hold("recall1", 2);
    give("first", 100);
    await Promise.all([write, early]);
    expect(order).toEqual(["first", "recall1", "write"]);

    order.length = 0;
    await take("second", "request", true);
    const late = hold("write2", 100, "request", true);
    give("second", 600); // write2 has now waited 0.6 s
    const recall = hold("recall2", 2);
    await Promise.all([late, recall]);
    expect(order).toEqual(["second", "write2", "recall2"]);
  });

  it("takes a short request after a background unit even when a write has waited long", async () => {
    const { order, take, give, hold } = harness();
    await take("writer", "request", true);
    const waiting = [
      hold("write2", 100, "request", true),
      hold("bg1", 60, "background"),
      hold("bg2", 60, "background"),
      hold("recall", 2),
    ];
    give("writer", 600); // write2 has waited 0.6 s; background work is owed time
    await Promise.all(waiting);
    expect(order).toEqual(["writer", "bg1", "recall", "bg2", "write2"]);
  });

  it("does not count a BEGIN as short: a new connection's transaction waits for its lane's turn", async () => {
    const { order, take, give, hold } = harness();
    await hold("busy-writer", 500, "request", true);
    await take("holder", "background");
    const write = hold("new-writer", 400, "request", true);
    const indexer = hold("indexer", 60, "background");
    give("holder", 10);
    await Promise.all([write, indexer]);
    // Lately the requests held it 500 ms and background work 10: the indexer goes first.
    expect(order).toEqual(["busy-writer", "holder", "indexer", "new-writer"]);
  });

  it("gives background work two thirds of the time while transactions keep coming", async () => {
    const { order, hold } = harness();
    const writes = async () => {
      for (let i = 0; i < 20; i++) await hold(`w${i}`, 100, "request", true);
    };
    const index = async () => {
      for (let i = 0; i < 60; i++) await hold(`i${i}`, 100, "background");
    };
    await Promise.all([writes(), index()]);
    // Of the first 30 turns (both lanes waiting all along), the indexer had about 20.
    const early = order.slice(0, 30).filter((c) => c.startsWith("i")).length;
    expect(early).toBeGreaterThanOrEqual(18);
    expect(early).toBeLessThanOrEqual(22);
  });

  it("serves requests in arrival order when no background work waits", async () => {
    const { order, take, give, hold } = harness();
    await take("a", "request", true);
    const rest = ["b", "c", "d", "e"].map((c) => hold(c, 100, "request", true));
    give("a", 100);
    await Promise.all(rest);
    expect(order).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("hands a freed database over on the next turn, so a request read meanwhile can go first", async () => {
    const { order, take, give, hold } = harness();
    await hold("indexer0", 1000, "background"); // background work has had its share lately
    await take("writer", "request", true);
    const indexer = hold("indexer1", 60, "background");
    give("writer", 100);
    const recall = hold("recall", 2); // arrives after the release, before the next turn
    await turn();
    await Promise.all([indexer, recall]);
    expect(order).toEqual(["indexer0", "writer", "recall", "indexer1"]);
  });
});

describe("the embedded database's front, with background statements queued", () => {
  let db: PGlite;
  let front: PGliteFront;
  let port: number;
  beforeAll(async () => {
    db = await PGlite.create();
    front = new PGliteFront({ db });
    port = await front.start();
    const c = await RawClient.connect(port);
    await c.query("CREATE TABLE ran (seq serial PRIMARY KEY, who text NOT NULL)");
    c.end();
  });
  afterAll(async () => {
    await front.stop();
    await db.close();
  });

  it("runs a short request's statement ahead of a queue of marked background statements", async () => {
    const holder = await RawClient.connect(port);
    const indexers = await Promise.all([1, 2, 3, 4].map(() => RawClient.connect(port)));
    const recall = await RawClient.connect(port);
    try {
      await holder.query("BEGIN");
      const queued = indexers.map((c, i) =>
        c.query(`${BACKGROUND_MARK} INSERT INTO ran (who) VALUES ('indexer ${i}')`),
      );
      await new Promise((r) => setTimeout(r, 50));
      const request = recall.query("INSERT INTO ran (who) VALUES ('recall')");
      await new Promise((r) => setTimeout(r, 50));
      await holder.query("INSERT INTO ran (who) VALUES ('holder'); COMMIT");
      await Promise.all([...queued, request]);
      const reply = await holder.query("SELECT who FROM ran ORDER BY seq");
      const who = reply.rows.map((r) => r[0]);
      // At most one background statement between the holder's commit and the recall.
      expect(who[0]).toBe("holder");
      expect(who.indexOf("recall")).toBeLessThanOrEqual(2);
      expect(who.filter((w) => w?.startsWith("indexer")).sort()).toEqual([
        "indexer 0",
        "indexer 1",
        "indexer 2",
        "indexer 3",
      ]);
    } finally {
      for (const c of [holder, ...indexers, recall]) c.end();
    }
  });
});
