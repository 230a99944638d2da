/**
 * Where the local embedding model's files come from, in this order:
 *   1. EMBEDDING_MODEL_DIR;
 *   2. ../shared/models/bge-small-en-v1.5 beside the repository;
 *   3. the cache, .data/models/bge-small-en-v1.5;
 *   4. a download of Xenova/bge-small-en-v1.5 from the Hugging Face hub (HF_ENDPOINT, default
 *      https://huggingface.co) into the cache, with a progress bar.
 * Every source must hold exactly the files pinned below (size and sha256): vectors are stored
 * under production's model name, so another export (int8, another revision) must not pass
 * for it. The tokenizer settings (tokenizer_config.json) are the model's fixed BERT settings
 * and live here, so only the two large files are needed.
 */
import { createHash } from "node:crypto";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ROOT } from "../service";

export const MODEL_DIMENSIONS = 384;
export const MAX_TOKENS = 512;
export const HUB_REPO = "Xenova/bge-small-en-v1.5";
const FOLDER = "bge-small-en-v1.5";

export interface PinnedFile {
  path: string;
  bytes: number;
  sha256: string;
}

/** As listed in ../shared/models/bge-small-en-v1.5/README.md (the Xenova export's files). */
export const MODEL_FILES: PinnedFile[] = [
  {
    path: "onnx/model.onnx",
    bytes: 133_093_490,
    sha256: "828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35",
  },
  {
    path: "tokenizer.json",
    bytes: 711_396,
    sha256: "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66",
  },
];

/** tokenizer_config.json of the model (BertTokenizer, lower-casing, 512 positions). */
export const BGE_TOKENIZER_CONFIG = {
  clean_up_tokenization_spaces: true,
  cls_token: "[CLS]",
  do_basic_tokenize: true,
  do_lower_case: true,
  mask_token: "[MASK]",
  model_max_length: MAX_TOKENS,
  never_split: null,
  pad_token: "[PAD]",
  sep_token: "[SEP]",
  strip_accents: null,
  tokenize_chinese_chars: true,
  tokenizer_class: "BertTokenizer",
  unk_token: "[UNK]",
};

export const SHARED_MODEL_DIR = resolve(ROOT, "..", "shared", "models", FOLDER);
export const CACHE_MODEL_DIR = resolve(ROOT, ".data", "models", FOLDER);

export interface FoundModel {
  dir: string;
  /** How it was found, for the start-up line: "EMBEDDING_MODEL_DIR", "../shared/models"… */
  source: string;
}

export type ModelLookup =
  | { ok: true; model: FoundModel; skipped: string[] }
  | { ok: false; tried: string[] };

/** Why a folder does not hold the pinned files, or undefined when it does. */
export async function checkFolder(dir: string): Promise<string | undefined> {
  for (const file of MODEL_FILES) {
    const path = join(dir, file.path);
    if (!existsSync(path)) return `${file.path} missing`;
    const size = statSync(path).size;
    if (size !== file.bytes) return `${file.path} is ${size} bytes, expected ${file.bytes}`;
    const hash = await sha256File(path);
    if (hash !== file.sha256) return `${file.path} has sha256 ${hash}, expected ${file.sha256}`;
  }
  return undefined;
}

export interface LookupOptions {
  env: NodeJS.ProcessEnv;
  /** Shown while a download runs. */
  progress: (line: string, final: boolean) => void;
  /** Other folders than SHARED_MODEL_DIR and CACHE_MODEL_DIR (tests). */
  sharedDir?: string;
  cacheDir?: string;
}

/** The lookup of the header, downloading as the last resort. */
export async function findModel(opts: LookupOptions): Promise<ModelLookup> {
  const tried: string[] = [];
  const cacheDir = opts.cacheDir ?? CACHE_MODEL_DIR;
  const candidates: Array<[string, string | undefined]> = [
    ["EMBEDDING_MODEL_DIR", opts.env.EMBEDDING_MODEL_DIR || undefined],
    ["../shared/models", opts.sharedDir ?? SHARED_MODEL_DIR],
    ["cache .data/models", cacheDir],
  ];
  for (const [source, dir] of candidates) {
    if (dir === undefined) {
      tried.push(`${source}: not set`);
      continue;
    }
    const problem = existsSync(dir) ? await checkFolder(dir) : "no such folder";
    if (problem === undefined) return { ok: true, model: { dir, source }, skipped: tried };
    tried.push(`${source} (${dir}): ${problem}`);
  }
  const hub = (opts.env.HF_ENDPOINT || "https://huggingface.co").replace(/\/+$/, "");
  try {
    await download(hub, cacheDir, opts.progress);
    return {
      ok: true,
      model: { dir: cacheDir, source: `downloaded from ${hub}/${HUB_REPO}` },
      skipped: tried,
    };
  } catch (err) {
    tried.push(`download from ${hub}/${HUB_REPO}: ${err instanceof Error ? err.message : err}`);
    return { ok: false, tried };
  }
}

/** Fetches each pinned file into `dir` through a .part file, checking size and sha256. */
async function download(
  hub: string,
  dir: string,
  progress: LookupOptions["progress"],
): Promise<void> {
  for (const file of MODEL_FILES) {
    const target = join(dir, file.path);
    if (existsSync(target) && (await sha256File(target)) === file.sha256) continue;
    mkdirSync(dirname(target), { recursive: true });
    const part = `${target}.part`;
    const url = `${hub}/${HUB_REPO}/resolve/main/${file.path}`;
    try {
      const hash = await fetchTo(url, part, file, progress);
      if (hash !== file.sha256) {
        throw new Error(`${file.path}: sha256 ${hash}, expected ${file.sha256}; not used`);
      }
      renameSync(part, target);
    } finally {
      rmSync(part, { force: true });
    }
  }
}

/** Streams a URL to a file; returns the sha256 of what was written. */
async function fetchTo(
  url: string,
  path: string,
  file: PinnedFile,
  progress: LookupOptions["progress"],
): Promise<string> {
  const stalled = new AbortController();
  let timer = setTimeout(() => stalled.abort(), 30_000);
  try {
    const res = await fetch(url, { signal: stalled.signal, redirect: "follow" });
    if (!res.ok || !res.body) throw new Error(`${url}: HTTP ${res.status}`);
    const hash = createHash("sha256");
    const out = createWriteStream(path);
    const started = Date.now();
    let received = 0;
    let shown = -1;
    for await (const chunk of res.body) {
      clearTimeout(timer);
      timer = setTimeout(() => stalled.abort(), 30_000);
      hash.update(chunk);
      received += chunk.length;
      if (received > file.bytes)
        throw new Error(`${url}: more than the expected ${file.bytes} bytes`);
      if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
      const pct = Math.floor((100 * received) / file.bytes);
      if (pct !== shown) {
        shown = pct;
        progress(bar(file.path, received, file.bytes, Date.now() - started), false);
      }
    }
    await new Promise<void>((resolveEnd, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolveEnd())),
    );
    progress(bar(file.path, received, file.bytes, Date.now() - started), true);
    if (received !== file.bytes)
      throw new Error(`${url}: got ${received} bytes, expected ${file.bytes}`);
    return hash.digest("hex");
  } catch (err) {
    if (stalled.signal.aborted) throw new Error(`${url}: no data for 30 s`);
    // fetch's "fetch failed" hides the reason (ENOTFOUND, ECONNREFUSED…) in its cause.
    const cause =
      err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : "";
    throw new Error(`${err instanceof Error ? err.message : err}${cause}`);
  } finally {
    clearTimeout(timer);
  }
}

function bar(name: string, received: number, total: number, ms: number): string {
  const width = 30;
  const done = Math.min(width, Math.round((width * received) / total));
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const rate = ms > 0 ? ` ${mb((received * 1000) / ms)} MB/s` : "";
  return `${name} [${"#".repeat(done)}${".".repeat(width - done)}] ${Math.floor((100 * received) / total)}% ${mb(received)}/${mb(total)} MB${rate}`;
}

export function sha256File(path: string): Promise<string> {
  return new Promise((resolveHash, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resolveHash(hash.digest("hex")))
      .on("error", reject);
  });
}
