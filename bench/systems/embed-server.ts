/**
 * An OpenAI-compatible embeddings endpoint on 127.0.0.1 (a free port) for Mem0 (whose
 * embedders speak HTTP), answering with the embedder the Worker uses in this run: the local
 * bge-small-en-v1.5 process (forwarded to it) or the lexical embedder, so Mem0 sees exactly
 * the vectors our Worker computes. It counts what it serves. `POST /v1/embeddings` only;
 * `/v1/chat/completions` answers 501 and is counted, so a run can prove that no language
 * model was asked for anything.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, sendJson } from "../../local/http-json";
import { EMBEDDING_DIMENSIONS, type Embedder } from "../../worker/embed/embedder";
import { countTokens } from "../../worker/lib/tokens";

export interface EmbedServerStats {
  requests: number;
  texts: number;
  /** Time spent inside the handler (parse, embed, serialise), summed. */
  ms: number;
  chatRequests: number;
}

export interface EmbedServer {
  /** Base URL to give an OpenAI client, e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string;
  model: string;
  stats: EmbedServerStats;
  resetStats(): void;
  close(): Promise<void>;
}

interface EmbeddingsRequest {
  input?: unknown;
  model?: unknown;
  dimensions?: unknown;
  encoding_format?: unknown;
}

export async function startEmbedServer(embedder: Embedder): Promise<EmbedServer> {
  const stats: EmbedServerStats = { requests: 0, texts: 0, ms: 0, chatRequests: 0 };

  const server = createServer((req, res) => {
    readBody(req)
      .then((body) => route(req, res, body))
      .catch((err) => sendJson(res, 500, { error: { message: String(err) } }));
  });

  async function route(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "POST" && path === "/v1/chat/completions") {
      stats.chatRequests += 1;
      sendJson(res, 501, { error: { message: "no language model here: the benchmark uses none" } });
      return;
    }
    if (req.method !== "POST" || path !== "/v1/embeddings") {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${path}` } });
      return;
    }
    const started = performance.now();
    const parsed = JSON.parse(body) as EmbeddingsRequest;
    const inputs = typeof parsed.input === "string" ? [parsed.input] : parsed.input;
    if (!Array.isArray(inputs) || !inputs.every((t): t is string => typeof t === "string")) {
      sendJson(res, 400, { error: { message: "input must be a string or an array of strings" } });
      return;
    }
    if (parsed.dimensions !== undefined && parsed.dimensions !== EMBEDDING_DIMENSIONS) {
      sendJson(res, 400, {
        error: { message: `this model has ${EMBEDDING_DIMENSIONS} dimensions only` },
      });
      return;
    }
    const { vectors } = await embedder.embed(inputs);
    const base64 = parsed.encoding_format === "base64";
    const tokens = inputs.reduce((n, t) => n + countTokens(t), 0);
    sendJson(res, 200, {
      object: "list",
      model: embedder.model,
      data: vectors.map((v, index) => ({
        object: "embedding",
        index,
        embedding: base64 ? Buffer.from(new Float32Array(v).buffer).toString("base64") : v,
      })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
    stats.requests += 1;
    stats.texts += inputs.length;
    stats.ms += performance.now() - started;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    model: embedder.model,
    stats,
    resetStats() {
      Object.assign(stats, { requests: 0, texts: 0, ms: 0, chatRequests: 0 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
