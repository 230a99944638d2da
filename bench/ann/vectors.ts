/**
 * The vectors of the index-design bench (designs.ts): bge-small vectors of LoCoMo's and
 * REALTALK's distinct sentences (four words or more), normalised blends of two of them beyond
 * that, and the datasets' questions as queries. Embedding ~10,000 sentences takes minutes on
 * two cores, so the vectors are kept in node_modules/.cache and reused while the datasets and
 * the model file are unchanged.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BgeModel } from "../../local/embedder/bge";
import { SHARED_MODEL_DIR } from "../../local/embedder/model-files";
import { prng } from "../lib/synthetic";
import { type LocomoData, loadLocomo } from "../locomo/data";

const DIM = 384;
/** Uniform noise of this width per dimension has a norm of PLANT_NOISE over 384. */
const NOISE_PER_DIMENSION =
  (Number(process.env.PLANT_NOISE ?? 0.25) * Math.sqrt(12)) / Math.sqrt(DIM);
const QUERIES_PER_DATASET = 150;
const DATASETS = ["locomo/locomo-dev.json", "realtalk/realtalk-dev.json"].map((f) =>
  resolve(import.meta.dirname, "..", "..", "..", "shared", "datasets", f),
);
const CACHE_DIR = resolve(import.meta.dirname, "..", "..", "node_modules", ".cache");

const normalise = (v: Float32Array) => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};

/** The distinct sentences of four words or more of a dataset's turns, without date and speaker. */
export function sentencesOf(data: LocomoData): string[] {
  const sentences = new Set<string>();
  for (const c of data.conversations) {
    for (const t of c.turns) {
      for (const s of t.content.replace(/^\[[^\]]*\]\s*[^:]+:\s*/, "").split(/(?<=[.!?])\s+/)) {
        if (s.split(/\s+/).length >= 4) sentences.add(s);
      }
    }
  }
  return [...sentences];
}

/** The unit vector of w·a + (1 − w)·b: a text "between" two sentences. */
export function blendOf(a: ArrayLike<number>, b: ArrayLike<number>, w: number): Float32Array {
  return normalise(Float32Array.from(a, (x, d) => w * x + (1 - w) * (b[d] ?? 0)));
}

function texts(): { sentences: string[]; questions: string[] } {
  const sentences = new Set<string>();
  const questions: string[] = [];
  for (const path of DATASETS) {
    const data = loadLocomo(path);
    for (const s of sentencesOf(data)) sentences.add(s);
    questions.push(
      ...data.conversations
        .flatMap((c) => c.questions.map((q) => q.question))
        .slice(0, QUERIES_PER_DATASET),
    );
  }
  return { sentences: [...sentences], questions };
}

async function embedCached(all: string[]): Promise<Float32Array[]> {
  const model = join(SHARED_MODEL_DIR, "onnx", "model.onnx");
  const key = createHash("sha256")
    .update(JSON.stringify(all))
    .update(String(statSync(model).size))
    .digest("hex")
    .slice(0, 16);
  const file = join(CACHE_DIR, `ann-vectors-${key}.f32`);
  if (existsSync(file)) {
    const buf = readFileSync(file);
    const flat = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    return all.map((_, i) => flat.slice(i * DIM, (i + 1) * DIM));
  }
  console.log(`embedding ${all.length} texts with bge-small (cached for the next run)…`);
  const started = Date.now();
  const bge = await BgeModel.load(SHARED_MODEL_DIR);
  const out: Float32Array[] = [];
  for (let i = 0; i < all.length; i += 512) {
    out.push(...(await bge.embed(all.slice(i, i + 512))));
    process.stdout.write(`\r  ${out.length} of ${all.length}`);
  }
  await bge.close();
  console.log(`\n  embedded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const flat = new Float32Array(all.length * DIM);
  for (const [i, v] of out.entries()) flat.set(v, i * DIM);
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(file, Buffer.from(flat.buffer));
  return out;
}

export interface BenchVectors {
  /** The wallet's rows: sentences first, then blends. */
  wallet: Float32Array[];
  /** The other wallets' rows (blends of another seed). */
  others: Float32Array[];
  /** The wallet's rows inserted with the index live. */
  extra: Float32Array[];
  queries: Float32Array[];
  /** The mean of the sentences' vectors. */
  mean: Float32Array;
  /** 100 vectors each near one row of wallet ++ extra (cosine ≈ 0.97): duplicates to find. */
  planted: Array<{ row: number; v: Float32Array }>;
}

export async function benchVectors(
  size: number,
  others: number,
  inserts: number,
): Promise<BenchVectors> {
  const { sentences, questions } = texts();
  const vecs = await embedCached([...sentences, ...questions]);
  const sv = vecs.slice(0, sentences.length);
  const blends = (n: number, seed: number) => {
    const r = prng(seed);
    return Array.from({ length: n }, () => {
      const a = sv[Math.floor(r() * sv.length)] ?? new Float32Array(DIM);
      const b = sv[Math.floor(r() * sv.length)] ?? new Float32Array(DIM);
      return blendOf(a, b, 0.3 + 0.4 * r());
    });
  };
  const wallet = [...sv.slice(0, size), ...blends(Math.max(0, size - sv.length), 11)];
  const extra = blends(inserts, 13);
  const r = prng(17);
  const all = [...wallet, ...extra];
  const planted = Array.from({ length: 100 }, () => {
    const row = Math.floor(r() * all.length);
    const base = all[row] ?? new Float32Array(DIM);
    // Noise of norm PLANT_NOISE (0.25) on a unit vector: cosine ≈ 1 / sqrt(1 + 0.0625) ≈ 0.97;
    // 0.33 puts the planted vectors at deduplication's threshold, 0.95.
    const v = normalise(base.map((x) => x + (r() - 0.5) * NOISE_PER_DIMENSION));
    return { row, v };
  });
  return {
    wallet,
    others: blends(others, 23),
    extra,
    queries: vecs.slice(sentences.length),
    mean: sv.reduce((m, v) => m.map((x, d) => x + (v[d] ?? 0) / sv.length), new Float32Array(DIM)),
    planted,
  };
}
