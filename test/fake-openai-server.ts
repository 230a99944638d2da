/**
 * A stand-in for an OpenAI-compatible API, started by the global setup (in Node, outside
 * workerd) so tests exercise the real HTTP clients without a network or a key.
 *
 * POST /v1/embeddings      deterministic unit vectors of the requested `dimensions`
 * POST /v1/chat/completions a JSON answer derived from the last user message (below)
 * GET  /__last-request     {authorization, body} of the last POST (?model=X: last with model X)
 * GET  /__calls?model=X     {embeddings, chat}: how many POSTs of each kind named model X, so a
 *                           test with a model name of its own counts the calls its requests made
 *
 * The model name selects a behaviour, so a test can provoke each one; anything after a ":"
 * is ignored ("malformed-once:1234"), so tests can use model names of their own:
 *   fail-500        500 every time
 *   flaky           503 the first time a given request body is seen, then 200
 *   rate-limited    429 with Retry-After: 0 the first time a body is seen, then 200
 *   wrong-dims      embeddings of length 10
 *   slow            answers after 20 s (clients are expected to time out first)
 *   malformed       chat: a content that is not JSON, every time
 *   malformed-once  chat: not JSON the first time a conversation is seen, then good; the
 *                   conversation is the first two messages, so a retry that appends a
 *                   correction to them counts as seen
 *   fenced          chat: the good JSON inside a ```json code fence with prose around it
 *   wrong-shape     chat: valid JSON of the wrong shape ({"facts": "none"}), every time
 *   judge-yes       update judgements: every pair replaces, confidence 0.95 (a credulous model)
 *   judge-no        update judgements: no pair replaces, confidence 0.95
 *   judge-unsure    update judgements: every pair replaces, confidence 0.5 (below the bar)
 *   judge-malformed update judgements: a content that is not JSON (other chat is good)
 *   judge-fail      update judgements: 500 every time (other chat is good)
 *   anything else   chat: good JSON
 * Embedding data comes back in reverse index order, as the API permits, so clients must sort.
 *
 * Good chat JSON: when the last user message is a JSON object with a `memories` array (a
 * synthesis request), {"content": the memories joined with spaces}; otherwise {"facts": [...]}
 * with one fact per sentence of the users' messages (the latest user message that is a JSON
 * array of {role, content}, else the last user message as plain text), each {content: the
 * sentence without its final full stop, memory_type: "general", importance: 0.5}. Only the
 * latest JSON user message is read, so a retry's appended correction changes nothing.
 *
 * An update judgement (llm/judge.ts: the user message is a JSON object with a `pairs` array of
 * {pair, older, newer, correction?}) is answered {"answers": [{pair, replaces, confidence}]}:
 * by the modes above, else as the store's rules judge the pair (updates/detect.ts) at
 * similarity 0.7, confidence 0.9, so that a Worker whose model is this fake notices what the
 * rules would.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type LoopbackServer, listenOnLoopback, readBody, sendJson } from "../local/http-json";
import { judgeUpdate } from "../worker/memories/updates/detect";

/** Its base URL is without /v1, e.g. http://127.0.0.1:PORT. */
export type FakeOpenAi = LoopbackServer;

interface RecordedRequest {
  authorization: string | null;
  body: unknown;
}

const SLOW_MS = 20_000;
const DEFAULT_DIMENSIONS = 1536;

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let last: RecordedRequest = { authorization: null, body: null };
  const lastByModel = new Map<string, RecordedRequest>();
  const callsByModel = new Map<string, { embeddings: number; chat: number }>();
  /** Request bodies already failed once, for "flaky" and "rate-limited". */
  const seen = new Set<string>();

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err) } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    if (req.method === "GET" && url.pathname === "/__last-request") {
      const model = url.searchParams.get("model");
      const recorded = model === null ? last : lastByModel.get(model);
      sendJson(res, 200, recorded ?? { authorization: null, body: null });
      return;
    }
    if (req.method === "GET" && url.pathname === "/__calls") {
      const calls = callsByModel.get(url.searchParams.get("model") ?? "");
      sendJson(res, 200, calls ?? { embeddings: 0, chat: 0 });
      return;
    }
    if (req.method !== "POST") return sendJson(res, 404, { error: { message: "not found" } });

    const raw = await readBody(req);
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== "object" || parsed === null) throw new Error("not an object");
      body = parsed as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { error: { message: "body must be a JSON object" } });
    }
    const model = typeof body.model === "string" ? body.model : "";
    const recorded = { authorization: req.headers.authorization ?? null, body };
    last = recorded;
    lastByModel.set(model, recorded);
    const calls = callsByModel.get(model) ?? { embeddings: 0, chat: 0 };
    if (url.pathname === "/v1/embeddings") calls.embeddings++;
    if (url.pathname === "/v1/chat/completions") calls.chat++;
    callsByModel.set(model, calls);
    const mode = model.split(":")[0] ?? "";

    if (mode === "fail-500") return sendJson(res, 500, { error: { message: "boom" } });
    if (mode === "flaky" && firstTime(seen, `${url.pathname}\n${raw}`)) {
      return sendJson(res, 503, { error: { message: "try again" } });
    }
    if (mode === "rate-limited" && firstTime(seen, `${url.pathname}\n${raw}`)) {
      res.setHeader("retry-after", "0");
      return sendJson(res, 429, { error: { message: "slow down" } });
    }
    if (mode === "slow") {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SLOW_MS);
        // The client gave up: don't keep the timer (and server.close) waiting 20 s.
        res.on("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (res.destroyed || res.writableEnded) return;
    }

    if (url.pathname === "/v1/embeddings") return sendJson(res, 200, embeddings(body, model));
    if (url.pathname === "/v1/chat/completions") {
      const messages = Array.isArray(body.messages) ? body.messages : [];
      if (mode === "judge-fail" && judgedPairs(messages)) {
        return sendJson(res, 500, { error: { message: "boom" } });
      }
      const conversation = `${model}\n${JSON.stringify(messages.slice(0, 2))}`;
      const bad =
        mode === "malformed" || (mode === "malformed-once" && firstTime(seen, conversation));
      return sendJson(res, 200, chat(body, model, bad ? "malformed" : mode));
    }
    sendJson(res, 404, { error: { message: `no route ${url.pathname}` } });
  }

  return listenOnLoopback(server);
}

function embeddings(body: Record<string, unknown>, model: string) {
  const input = body.input;
  const texts = Array.isArray(input) ? input.map(String) : [String(input ?? "")];
  const requested = typeof body.dimensions === "number" ? body.dimensions : DEFAULT_DIMENSIONS;
  const dims = model === "wrong-dims" ? 10 : requested;
  const data = texts.map((text, index) => ({
    object: "embedding",
    index,
    embedding: fakeVector(text, dims),
  }));
  const promptTokens = texts.reduce((sum, t) => sum + fakeTokenCount(t), 0);
  return {
    object: "list",
    data: data.reverse(),
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}

function chat(body: Record<string, unknown>, model: string, mode: string) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const promptTokens = messages.reduce<number>(
    (sum, m) => sum + fakeTokenCount(JSON.stringify(m)),
    0,
  );
  const answer = goodAnswer(messages, mode);
  // A string is the content itself (judge-malformed's prose).
  const good = typeof answer === "string" ? answer : JSON.stringify(answer);
  const content =
    mode === "malformed"
      ? "Sure! Here are the facts you asked for: facts = [the user, likes"
      : mode === "fenced"
        ? `Here you go:\n\`\`\`json\n${good}\n\`\`\`\nAnything else?`
        : mode === "wrong-shape"
          ? JSON.stringify({ facts: "none" })
          : good;
  const completionTokens = fakeTokenCount(content);
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [
      { index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

interface JudgedPair {
  pair: number;
  older: string;
  newer: string;
  correction?: boolean;
}

/** The pairs of an update judgement, or undefined for another request (see the header). */
function judgedPairs(messages: unknown[]): JudgedPair[] | undefined {
  for (const m of messages) {
    if (typeof m !== "object" || m === null || !("role" in m) || m.role !== "user") continue;
    try {
      const parsed: unknown = JSON.parse(String((m as { content?: unknown }).content));
      if (typeof parsed === "object" && parsed !== null && "pairs" in parsed) {
        return Array.isArray(parsed.pairs) ? (parsed.pairs as JudgedPair[]) : [];
      }
    } catch {
      // not JSON: not a judgement
    }
  }
  return undefined;
}

/** The answer to an update judgement, by mode (see the header). */
function judgement(pairs: JudgedPair[], mode: string): unknown {
  if (mode === "judge-malformed") return "Pair 1 looks like an update, I think.";
  return {
    answers: pairs.map((p) => {
      if (mode === "judge-yes") return { pair: p.pair, replaces: true, confidence: 0.95 };
      if (mode === "judge-no") return { pair: p.pair, replaces: false, confidence: 0.95 };
      if (mode === "judge-unsure") return { pair: p.pair, replaces: true, confidence: 0.5 };
      const verdict = judgeUpdate(
        p.newer,
        { content: p.older, similarity: 0.7 },
        { correction: p.correction === true },
      );
      return { pair: p.pair, replaces: verdict.replaces, confidence: 0.9 };
    }),
  };
}

/** The good answer to a chat request (see the header). */
function goodAnswer(messages: unknown[], mode: string): unknown {
  const pairs = judgedPairs(messages);
  if (pairs) return judgement(pairs, mode);
  const userTexts = messages.flatMap((m) =>
    typeof m === "object" && m !== null && "role" in m && m.role === "user" && "content" in m
      ? [String(m.content)]
      : [],
  );
  const lastUser = userTexts[userTexts.length - 1] ?? "";
  // The latest user message that is JSON: a retry appends a plain-text correction after it.
  let parsed: unknown;
  for (const text of [...userTexts].reverse()) {
    try {
      parsed = JSON.parse(text);
      break;
    } catch {
      // not JSON: an earlier message may be
    }
  }
  if (typeof parsed === "object" && parsed !== null && "memories" in parsed) {
    const memories = Array.isArray(parsed.memories) ? parsed.memories.map(String) : [];
    return { content: memories.join(" ") };
  }
  const texts = Array.isArray(parsed)
    ? parsed.flatMap((m: unknown) =>
        typeof m === "object" && m !== null && "role" in m && m.role === "user" && "content" in m
          ? [String(m.content)]
          : [],
      )
    : [lastUser];
  const facts = texts
    .flatMap((t) => t.split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.trim().replace(/\.$/, ""))
    .filter((sentence) => sentence.length > 0)
    .map((content) => ({ content, memory_type: "general", importance: 0.5 }));
  return { facts };
}

/** A unit vector determined by the text alone: mulberry32 seeded with the text's FNV-1a. */
export function fakeVector(text: string, dims: number): number[] {
  let seed = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 0x01000193);
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  const v = Array.from({ length: dims }, next);
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** One token per started 4 characters, at least 1: deterministic, and distinguishable from
 * the client's own countTokens in tests. */
function fakeTokenCount(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function firstTime(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}
