/**
 * Grants given, changed and taken back while grantees read and write through them, from many
 * wallets at once: no answer ever holds a row of a namespace that was never shared or of
 * another owner, a wallet that only ever held read grants wrote nothing anywhere, every
 * shared write landed in the owner's shared namespace, and nothing answers 5xx. CI runs it
 * on both databases, like test/concurrency.test.ts.
 */
import { describe, expect, it } from "vitest";
import { type ApiResponse, type Json, newWallet, type Wallet } from "../../helpers";
import { as } from "./fixtures";

const OWNERS = 4;
const READERS = 4;
const WRITERS = 4;
const ROUNDS = 3;

interface Owner {
  wallet: Wallet;
  marker: string;
}

const lower = (w: Wallet) => w.address.toLowerCase();

describe("sharing under concurrent grant, revoke and use", () => {
  it("never shows a foreign row, and writes only where a write grant was", async () => {
    const owners: Owner[] = Array.from({ length: OWNERS }, (_, i) => ({
      wallet: newWallet(),
      marker: `owner${i}mark${crypto.randomUUID().slice(0, 8)}`,
    }));
    const readers = Array.from({ length: READERS }, () => newWallet());
    const writers = Array.from({ length: WRITERS }, () => newWallet());
    await Promise.all(
      owners.map(async (o) => {
        await o.wallet.storeNew(`${o.marker} shares the roadmap for the harbour`, {
          namespace: "shared",
        });
        await o.wallet.storeNew(`${o.marker} keeps the harbour budget private`, {
          namespace: "private",
        });
      }),
    );

    const problems: string[] = [];
    /** What the grantees got, so that the run is known to have crossed live grants. */
    const seen = { rows: 0, sharedWrites: 0, readOnly: 0 };
    const expectOk = (what: string, res: ApiResponse, ok: number[]) => {
      if (!ok.includes(res.status)) {
        problems.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
      return res.status === 200 || res.status === 201;
    };
    /** Every memory a grantee saw through owner `o` must be o's, and of "shared". */
    const inspect = (what: string, o: Owner, list: Json[]) => {
      seen.rows += list.length;
      for (const m of list) {
        if (m.content !== undefined && !String(m.content).includes(o.marker))
          problems.push(`${what}: another owner's row ${m.id}`);
        if (m.namespace !== undefined && m.namespace !== "shared")
          problems.push(`${what}: a row of ${m.namespace}`);
      }
    };

    const grantor = async (o: Owner) => {
      for (let r = 0; r < ROUNDS * 3; r++) {
        const reader = readers[r % READERS] as Wallet;
        const writer = writers[(r + 1) % WRITERS] as Wallet;
        const give = (w: Wallet, permission: string) =>
          o.wallet.post("/v1/grants", { grantee: w.address, namespace: "shared", permission });
        expectOk("grant read", await give(reader, "read"), [200, 201]);
        expectOk("grant write", await give(writer, "write"), [200, 201]);
        // A grant on the private namespace is never given: nothing of it may ever show.
        const back = (w: Wallet) =>
          o.wallet.del(`/v1/grants?grantee=${w.address}&namespace=shared`);
        expectOk("revoke", await back(r % 2 === 0 ? reader : writer), [200, 404]);
      }
    };

    const grantee = async (w: Wallet, writes: boolean, seed: number) => {
      for (let r = 0; r < ROUNDS; r++) {
        for (const [i, o] of owners.entries()) {
          const owner = o.wallet;
          const list = await w.get(as("/v1/memories?limit=100", owner));
          if (expectOk("list", list, [200])) inspect("list", o, list.body.memories);
          const recall = await w.post(as("/v1/recall", owner), { query: "harbour budget" });
          if (expectOk("recall", recall, [200])) inspect("recall", o, recall.body.memories);
          const search = await w.post(as("/v1/search", owner), { query: "harbour" });
          if (expectOk("search", search, [200])) inspect("search", o, search.body.memories);
          const store = await w.post(as("/v1/store", owner), {
            content: `${o.marker} note ${seed}-${r}-${i} about the harbour crane ${crypto.randomUUID()}`,
            namespace: "shared",
          });
          // A reader may hold no grant, a read grant (403) or, never, a write grant.
          expectOk("store", store, writes ? [201, 403, 404] : [403, 404]);
          if (!writes && store.status === 201) problems.push("a reader wrote");
          if (store.status === 201) seen.sharedWrites++;
          if (store.status === 403) seen.readOnly++;
        }
      }
    };

    await Promise.all([
      ...owners.map(grantor),
      ...readers.map((w, i) => grantee(w, false, i)),
      ...writers.map((w, i) => grantee(w, true, 100 + i)),
    ]);
    expect(problems).toEqual([]);
    expect(seen.rows).toBeGreaterThan(0);
    expect(seen.sharedWrites).toBeGreaterThan(0);
    expect(seen.readOnly).toBeGreaterThan(0);

    // Afterwards, from the owners' side: every memory is the owner's; every one a grantee
    // wrote is in "shared" and was written by a writer, never a reader.
    const writerSet = new Set(writers.map(lower));
    for (const o of owners) {
      const all = await o.wallet.getOk("/v1/export");
      for (const m of all.memories as Json[]) {
        expect(m.content).toContain(o.marker);
        if (m.created_by !== lower(o.wallet)) {
          expect(writerSet.has(m.created_by), m.created_by).toBe(true);
          expect(m.namespace).toBe("shared");
        }
      }
    }
    // No grantee's own memories were touched: shared writes go to the owner.
    for (const w of [...readers, ...writers]) {
      expect((await w.getOk("/v1/memories/count")).count).toBe(0);
    }
  }, 180_000);
});
