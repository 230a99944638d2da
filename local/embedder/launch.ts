/**
 * Starts and stops the embedding process (main.ts) for `npm run dev`, the tests' global setup
 * and the benchmark, and decides which embedder the Worker gets:
 *   - EMBEDDER set in the environment: that one, as configured (EMBEDDER=local is the lexical
 *     embedder on purpose);
 *   - otherwise bge-small-en-v1.5 in the local process, reached through the Worker's `openai`
 *     embedder with EMBEDDING_MODEL = "@cf/baai/bge-small-en-v1.5", production's name, so the
 *     vectors stored locally and in production are compared like with like;
 *   - when the model cannot be found or loaded: the lexical embedder, with one line that says
 *     why and how to fix it.
 */
import { startChild } from "../child";

export interface ModelProcess {
  /** Base URL of the OpenAI-compatible API, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  model: string;
  /** Where the files came from ("../shared/models", "cache .data/models"…). */
  source: string;
  dir: string;
  stop(): Promise<void>;
}

export type LaunchResult = { ok: true; process: ModelProcess } | { ok: false; reason: string };

const MAIN = new URL("./main.ts", import.meta.url).pathname;

/** Spawns the embedding process and waits until it serves, or says why it cannot. */
export async function startModelProcess(opts: { port?: number } = {}): Promise<LaunchResult> {
  const started = await startChild("embedder", MAIN, ["--port", String(opts.port ?? 0)]);
  if (!started.ok) return started;
  const { message } = started;
  return {
    ok: true,
    process: {
      url: String(message.url),
      model: String(message.model),
      source: String(message.source),
      dir: String(message.dir),
      stop: started.stop,
    },
  };
}

export interface EmbedderChoice {
  /** Variables for the Worker (EMBEDDER and its settings). */
  vars: Record<string, string>;
  /** Which embedder and model, in one line for the console. */
  summary: string;
  /** True for the lexical embedder, chosen or fallen back to. */
  lexical: boolean;
  /** The local model's endpoint, when it runs. */
  model?: ModelProcess;
  stop(): Promise<void>;
}

const LEXICAL = "local-lexical-v1, the built-in LEXICAL embedder (matches words, not meaning)";

/** The embedder of the header for an environment (process.env for `npm run dev`). */
export async function chooseEmbedder(env: NodeJS.ProcessEnv): Promise<EmbedderChoice> {
  const none = async () => {};
  const configured = env.EMBEDDER?.trim();
  if (configured === "local") {
    return {
      vars: { EMBEDDER: "local" },
      summary: `${LEXICAL}: EMBEDDER=local`,
      lexical: true,
      stop: none,
    };
  }
  if (configured) {
    const model = env.EMBEDDING_MODEL || (configured === "openai" ? "text-embedding-3-small" : "");
    return {
      vars: { EMBEDDER: configured },
      summary: `EMBEDDER=${configured}${model ? ` (${model})` : ""}, as configured`,
      lexical: false,
      stop: none,
    };
  }
  const launched = await startModelProcess();
  if (!launched.ok) {
    return {
      vars: { EMBEDDER: "local" },
      summary:
        `FALLBACK to ${LEXICAL}: ${launched.reason}. To fix: put the model files in ` +
        "../shared/models/bge-small-en-v1.5 or in a folder named by EMBEDDING_MODEL_DIR, or start once " +
        "online to download them into .data/models; EMBEDDER=local picks the lexical embedder on purpose",
      lexical: true,
      stop: none,
    };
  }
  const p = launched.process;
  return {
    vars: { EMBEDDER: "openai", EMBEDDING_API_URL: p.url, EMBEDDING_MODEL: p.model },
    summary: `bge-small-en-v1.5 as ${p.model} (CLS pooling, 384-d, production's vectors) in a local process at ${p.url}, files from ${p.source}`,
    lexical: false,
    model: p,
    stop: () => p.stop(),
  };
}
