/**
 * The OpenAI-compatible embeddings endpoint of the local model, on 127.0.0.1:
 *
 *   POST /v1/embeddings  {input: string | string[], model?, dimensions?, encoding_format?}
 *                        → {object: "list", model, data: [{object, index, embedding}]}
 *   GET  /health         → {model, source, requests, runs, texts}
 *
 * `model` must be the served one when given, and `dimensions` 384: a client configured for
 * another model gets an error, not vectors stored under the wrong name. No `usage` in the
 * answer, as Workers AI reports none, so the Worker counts tokens_used the same way in
 * production and locally. `encoding_format: "base64"` (the OpenAI SDK's default, which
 * Mem0 uses) gives little-endian float32.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, sendJson } from "../http-json";
import type { Batcher } from "./batcher";
import { MODEL_DIMENSIONS } from "./model-files";

const MAX_INPUTS = 2048;
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface EmbeddingServerOptions {
  batcher: Batcher<Float32Array>;
  /** The name clients must ask for and the answers carry. */
  model: string;
  /** Where the files came from, for /health. */
  source: string;
  port: number;
}

export interface EmbeddingServer {
  url: string;
  close(): Promise<void>;
}

class BadRequest extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export async function startEmbeddingServer(opts: EmbeddingServerOptions): Promise<EmbeddingServer> {
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof BadRequest ? err.status : 500;
      if (status === 500) console.error("[embedder] request failed:", err);
      const message = err instanceof Error ? err.message : String(err);
      sendJson(res, status, {
        error: { message, type: status === 500 ? "server_error" : "invalid_request_error" },
      });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/health") {
      sendJson(res, 200, { model: opts.model, source: opts.source, ...opts.batcher.stats });
      return;
    }
    if (req.method !== "POST" || path !== "/v1/embeddings") {
      throw new BadRequest(`no route ${req.method} ${path}`, 404);
    }
    const body = parseBody(
      await readBody(req, {
        maxBytes: MAX_BODY_BYTES,
        tooLarge: () => new BadRequest("body too large", 413),
      }),
    );
    if (body.model !== undefined && body.model !== opts.model) {
      throw new BadRequest(
        `model ${JSON.stringify(body.model)} is not served here; this endpoint serves ${opts.model}`,
        404,
      );
    }
    if (body.dimensions !== undefined && body.dimensions !== MODEL_DIMENSIONS) {
      throw new BadRequest(
        `${opts.model} has ${MODEL_DIMENSIONS} dimensions; dimensions must be ${MODEL_DIMENSIONS} or absent`,
      );
    }
    const vectors = await opts.batcher.embed(body.input);
    const base64 = body.encodingFormat === "base64";
    sendJson(res, 200, {
      object: "list",
      model: opts.model,
      data: vectors.map((v, index) => ({
        object: "embedding",
        index,
        embedding: base64
          ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64")
          : Array.from(v),
      })),
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface EmbeddingsBody {
  input: string[];
  model: unknown;
  dimensions: unknown;
  encodingFormat: unknown;
}

function parseBody(raw: string): EmbeddingsBody {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new BadRequest("the body must be JSON");
  }
  if (typeof json !== "object" || json === null)
    throw new BadRequest("the body must be a JSON object");
  const body = json as Record<string, unknown>;
  const input = typeof body.input === "string" ? [body.input] : body.input;
  if (!Array.isArray(input) || !input.every((t): t is string => typeof t === "string")) {
    throw new BadRequest("input must be a string or an array of strings");
  }
  if (input.length > MAX_INPUTS) throw new BadRequest(`at most ${MAX_INPUTS} inputs a request`);
  return {
    input,
    model: body.model,
    dimensions: body.dimensions,
    encodingFormat: body.encoding_format,
  };
}
