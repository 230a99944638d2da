/**
 * How often recall's approximate vector source agrees with an exact scan, on the production
 * model's vectors rather than the speed part's lexical ones (docs/benchmarks.md, 2026-11-27):
 * bge vectors of LoCoMo's distinct sentences, and normalised blends of two of them up to
 * SIZE, in one wallet whose HNSW shard is built in bulk; LoCoMo questions as queries; top-1
 * and top-10 overlap at each hnsw.ef_search of EF. Needs the model (../shared/models) and a
 * scratch database on a PostgreSQL server:
 *
 *   URL=postgres://postgres:postgres@127.0.0.1:55432/annq SIZE=100000 EF=100,200 TIME=1 \
 *     npx tsx bench/ann/bge.ts
 */
import { createHash } from "node:crypto";
import { neonConfig } from "@neondatabase/serverless";
import { sql } from "drizzle-orm";
import ws from "ws";
import { applyMigrations } from "../../local/db/start";
import { startWsProxy } from "../../local/db/ws-proxy";
import { BgeModel } from "../../local/embedder/bge";
import { SHARED_MODEL_DIR } from "../../local/embedder/model-files";
import { memories, users } from "../../schema/tables";
import { vectorLiteral } from "../../schema/vector-literal";
import { connectDb } from "../../worker/db/client";
import { annQueryVector, annRows } from "../../worker/memories/ann";
import { liveMemory } from "../../worker/memories/rows";
import { prng } from "../lib/synthetic";
import { loadLocomo } from "../locomo/data";
import { buildAnnIndexes, dropAnnIndexes } from "../systems/seed";
import { annAgreement } from "./quality";
import { blendOf, sentencesOf } from "./vectors";

const url = process.env.URL ?? "";
const SIZE = Number(process.env.SIZE ?? 100_000);
const QUERIES = Number(process.env.QUERIES ?? 300);
const MODEL = "@cf/baai/bge-small-en-v1.5";
neonConfig.webSocketConstructor = ws;
const proxy = await startWsProxy(0);
const wsProxy = `127.0.0.1:${proxy.port}`;
await applyMigrations(url, wsProxy, { endSession: true });
const { db, close } = connectDb(url, { wsProxy, queryTimeoutMs: 0 });

const data = loadLocomo(
  new URL("../../../shared/datasets/locomo/locomo-dev.json", import.meta.url).pathname,
);
const sentences = sentencesOf(data);
const questions = data.conversations.flatMap((c) => c.questions.map((q) => q.question));
console.log(`${sentences.length} sentences, ${questions.length} questions`);
const model = await BgeModel.load(SHARED_MODEL_DIR);
let t = Date.now();
const sv = await model.embed(sentences);
const qv = (await model.embed(questions.slice(0, QUERIES))).map((v) => Array.from(v));
console.log(`embedded in ${((Date.now() - t) / 1000).toFixed(1)} s`);

const existing = await db.execute<{ id: string }>(
  sql`SELECT id FROM users WHERE wallet = ${`annbge-${SIZE}`}`,
);
let userId = existing.rows[0]?.id;
if (!userId) {
  const [u] = await db
    .insert(users)
    .values({ wallet: `annbge-${SIZE}` })
    .returning({ id: users.id });
  userId = u?.id ?? "";
  await dropAnnIndexes(db);
  const r = prng(11);
  t = Date.now();
  for (let done = 0; done < SIZE; done += 1000) {
    const rows = Array.from({ length: Math.min(1000, SIZE - done) }, (_, k) => {
      const n = done + k;
      let content: string;
      let v: number[];
      if (n < sentences.length) {
        content = sentences[n] ?? "";
        v = Array.from(sv[n] ?? []);
      } else {
        const i = Math.floor(r() * sentences.length);
        const j = Math.floor(r() * sentences.length);
        const w = 0.3 + 0.4 * r();
        v = Array.from(blendOf(sv[i] ?? [], sv[j] ?? [], w));
        content = `${sentences[i]} ${sentences[j]} (${n})`;
      }
      return {
        userId: userId as string,
        content,
        embedding: v,
        embeddingModel: MODEL,
        contentHash: createHash("sha256").update(content).digest("hex"),
        ann: true,
        createdBy: `annbge-${SIZE}`,
      };
    });
    await db.insert(memories).values(rows);
  }
  console.log(`inserted ${SIZE} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  await buildAnnIndexes(db);
  await db.execute(sql`VACUUM ANALYZE memories`);
}
for (const ef of (process.env.EF ?? "100").split(",").map(Number)) {
  if (process.env.TIME) {
    // One probe as recall's vec_ann makes it (LIMIT 50), at this depth (annQueryVector).
    const started = performance.now();
    for (const q of qv) {
      await db.execute(sql`SELECT ${memories.id} FROM ${memories}
        WHERE ${liveMemory({ userId })} AND ${annRows(userId)}
        ORDER BY ${memories.embedding} <=> ${annQueryVector(vectorLiteral(q), ef)} LIMIT 50`);
    }
    console.log(
      `  ef ${ef}: ${((performance.now() - started) / qv.length).toFixed(2)} ms a probe (LIMIT 50)`,
    );
  }
  t = Date.now();
  const a = await annAgreement(db, userId, MODEL, qv, ef);
  console.log(
    `size ${SIZE} ef_search ${ef}: top-1 ${(a.top1 * 100).toFixed(1)}%, top-10 overlap ${(a.overlap10 * 100).toFixed(1)}% (${a.queries} queries, ${((Date.now() - t) / a.queries).toFixed(1)} ms each incl. exact)`,
  );
}
await close();
await proxy.close();
