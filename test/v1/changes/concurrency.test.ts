/**
 * The feed's promise under load (docs/changes.md, "Order"): 20 writers (the owner and 19
 * grantees, through write grants: each wallet has its own rate limit) store, PATCH and delete
 * in the owner's namespace at once while a reader (another grantee, reading) pages
 * through the feed with `wait`. Every acknowledged change appears exactly once, each memory's
 * changes in the order they were made, and the cursors count up without a gap. CI runs it on
 * both databases; on PostgreSQL the writes truly overlap.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { userIdOf, withDb } from "../../db";
import { expectStatus, type Json, newWallet, uniqueText, type Wallet } from "../../helpers";
import { as, grant } from "../sharing/fixtures";

const WRITERS = 20;
const ROUNDS = 3;
const PAGE = 7;

interface Done {
  memory: string;
  kind: string;
}

describe("the change feed under concurrent writers", () => {
  it("tells every change once, in order, to a reader paging while they write", async () => {
    const owner = newWallet();
    const writers: Wallet[] = [owner];
    for (let n = 1; n < WRITERS; n++) {
      const grantee = newWallet();
      await grant(owner, grantee, "team", "write");
      writers.push(grantee);
    }
    // The reader is a wallet of its own too, so that its pages count against its own limit.
    const watcher = newWallet();
    await grant(owner, watcher, "team", "read");
    const feed = (query: string) => watcher.get(as(`/v1/changes?${query}`, owner));
    const start = expectStatus(await owner.get("/v1/changes?since=now"), 200).next_cursor;

    const done: Done[][] = Array.from({ length: WRITERS }, () => []);
    let writing = true;
    const writer = async (n: number) => {
      const w = writers[n] as Wallet;
      const path = (p: string) => (w === owner ? p : as(p, owner));
      const mine = done[n] as Done[];
      for (let r = 0; r < ROUNDS; r++) {
        const stored = expectStatus(
          await w.post(path("/v1/store"), {
            content: uniqueText(`writer ${n} round ${r}: the dock schedule`),
            namespace: "team",
          }),
          201,
        );
        mine.push({ memory: stored.id, kind: "memory.stored" });
        expectStatus(await w.patch(path(`/v1/memories/${stored.id}`), { importance: 0.8 }), 200);
        mine.push({ memory: stored.id, kind: "memory.updated" });
        if (r % 2 === 0) {
          expectStatus(await w.del(path(`/v1/memories/${stored.id}`)), 200);
          mine.push({ memory: stored.id, kind: "memory.deleted" });
        }
      }
      if (n % 5 === 0) {
        const batch = expectStatus(
          await w.post(path("/v1/store/batch"), {
            memories: [0, 1, 2].map((i) => ({
              content: uniqueText(`writer ${n} batch ${i}: crane maintenance`),
              namespace: "team",
            })),
          }),
          201,
        );
        for (const id of batch.ids) mine.push({ memory: id, kind: "memory.stored" });
      }
    };

    const seen: Json[] = [];
    let pages = 0;
    const reader = async () => {
      let cursor = start;
      for (;;) {
        const stillWriting = writing;
        const page = expectStatus(await feed(`since=${cursor}&limit=${PAGE}&wait=1`), 200);
        pages += 1;
        seen.push(...page.changes);
        cursor = page.next_cursor;
        // Done once a read that began after the last acknowledged write found nothing more.
        if (!stillWriting && page.changes.length === 0) return;
      }
    };

    const reading = reader();
    await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n)));
    writing = false;
    await reading;

    const expected = done.flat();
    // Exactly once: as many events as acknowledged changes, no id or cursor twice.
    expect(seen.length).toBe(expected.length);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    // Without a gap: the cursors are start+1, start+2, ….
    expect(seen.map((e) => Number(e.cursor))).toEqual(seen.map((_, i) => Number(start) + 1 + i));
    // Each memory's changes in the order its writer made them (one writer per memory).
    const byMemory = new Map<string, string[]>();
    for (const e of seen) byMemory.set(e.memory_id, [...(byMemory.get(e.memory_id) ?? []), e.kind]);
    for (const mine of done) {
      const perMemory = new Map<string, string[]>();
      for (const d of mine) perMemory.set(d.memory, [...(perMemory.get(d.memory) ?? []), d.kind]);
      for (const [memory, kinds] of perMemory) expect(byMemory.get(memory)).toEqual(kinds);
    }
    // The writer each event names: a grantee's writes are the grantee's.
    const writerOf = new Map<string, string>();
    done.forEach((mine, n) => {
      for (const d of mine) writerOf.set(d.memory, (writers[n] as Wallet).address.toLowerCase());
    });
    for (const e of seen) expect(e.created_by).toBe(writerOf.get(e.memory_id));
    // And a read from the start now answers the same events, in the same order.
    const again: Json[] = [];
    let cursor = start;
    for (;;) {
      const page = expectStatus(await feed(`since=${cursor}&limit=1000`), 200);
      again.push(...page.changes);
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    expect(again.map((e) => e.id)).toEqual(seen.map((e) => e.id));
    expect(pages).toBeGreaterThan(3);
  });

  // The feed's hard case: a transaction that began first commits last. On a server, the store
  // made meanwhile commits while the first is open, and must get the earlier number. The
  // embedded database runs one transaction at a time, so there the store waits for the open
  // one and commits after it: the numbers must follow that order instead.
  it("numbers transactions in the order they commit, not the order they began", async () => {
    const w = newWallet();
    await w.storeNew(uniqueText("the first note"));
    const user = await withDb((db) => userIdOf(db, w));
    const serial = env.DATABASE_SERIAL === "on";
    let heldId = "";
    let storedId = "";
    let storedBeforeCommit = false;
    let seenWhileOpen: Json[] | undefined;
    let storing: Promise<void> = Promise.resolve();
    await withDb((db) =>
      db.transaction(async (tx) => {
        // Begins, and writes its memory (and so its event), before the store below…
        const res = await tx.execute<{ id: string }>(sql`
          INSERT INTO memories (user_id, content, content_hash, created_by)
          VALUES (${user}::uuid, 'held open', md5('held open'), ${w.address.toLowerCase()})
          RETURNING id`);
        heldId = res.rows[0]?.id ?? "";
        storing = w.storeNew(uniqueText("stored while the other is open")).then((id) => {
          storedId = id;
        });
        // …and, on a server, commits after the store has (the embedded database holds the
        // store until this commits: waiting for it here would never end).
        if (!serial) {
          await storing;
          storedBeforeCommit = true;
          seenWhileOpen = expectStatus(await w.get("/v1/changes?since=1"), 200).changes;
        }
      }),
    );
    await storing;
    const after = expectStatus(await w.get("/v1/changes?since=1"), 200).changes;
    const order = storedBeforeCommit ? [storedId, heldId] : [heldId, storedId];
    expect(after.map((e: Json) => [e.cursor, e.memory_id])).toEqual([
      ["2", order[0]],
      ["3", order[1]],
    ]);
    // On the server, a reader while the first was open saw the store's event alone, as 2.
    if (storedBeforeCommit) {
      expect(seenWhileOpen?.map((e: Json) => [e.cursor, e.memory_id])).toEqual([["2", storedId]]);
    }
  });
});
