/**
 * The one way the model-backed providers (openai.ts, workers-ai.ts) ask for structured
 * output and read it back: the prompts, the JSON schemas, zod validation, repair and the
 * bounded retry on malformed output. The providers only differ in how a request is sent.
 *
 * Reading an answer: JSON.parse; failing that, the same after removing a ```json fence;
 * failing that, the first balanced {...} in the text. The result must then match the task's
 * zod schema. Structure is strict (`facts` an array of objects with a string `content`;
 * `content` a non-empty string), while two fields are normalised rather than rejected,
 * because small models get them wrong often and a rule decides them as well as the model
 * would: a `memory_type` outside the six types, or a missing or non-numeric `importance`, is
 * taken from the keyword rules of migrate's `classify`; importance is clamped to 0-1. Facts
 * with empty content are dropped, longer ones cut to 8,192 characters, repeats kept once.
 *
 * An update judgement (judgeTask, for llm/judge.ts) is read by parseJudgeAnswers instead, per
 * pair, and never retried: a pair the answer does not settle gets the store's rules' verdict.
 *
 * A malformed answer is retried up to MALFORMED_RETRIES more times, each retry showing the
 * model its previous answer and what was wrong with it (at temperature 0 the very same
 * request tends to produce the very same answer). Then the task fails with BAD_GATEWAY;
 * nothing of a malformed answer is ever returned, so nothing half-parsed is stored.
 */
import { z } from "zod";
import { ApiError } from "../errors";
import type { ChatMessage, Fact } from "../language-model";
import { toStorable } from "../lib/validate";
import { LIMITS, MEMORY_TYPES, type MemoryType } from "../memories/fields";
import { classify } from "../migrate/sections";
import { cutAtWord, wordKey } from "./sentences";

/** Retries after a malformed answer; the first attempt is not counted. */
export const MALFORMED_RETRIES = 2;
/** Output budget per answer (Workers AI's own default, 256, cuts a fact list short). */
export const MAX_OUTPUT_TOKENS = 4096;

const TYPES = MEMORY_TYPES.join(", ");

export const EXTRACTION_PROMPT = `You turn conversations into long-term memories for an AI agent.
The user message is a JSON array of the conversation's messages, each {"role", "content"}.
Extract every fact worth remembering that the user (or another human speaker) stated or confirmed:
facts about the user, their preferences, decisions, projects, corrections, people, dates and numbers.
Use assistant messages only as context: never extract the assistant's suggestions or guesses.
Skip greetings, thanks, filler, questions and requests to the assistant.
Each fact must be one self-contained sentence that makes sense on its own, in the third person
("The user prefers dark mode", not "I prefer dark mode"), without a trailing full stop.
memory_type is one of: ${TYPES}.
importance is a number from 0 to 1: decision 0.9, correction 0.85, preference 0.8, project 0.7,
observation 0.65, general 0.6; higher when the user asks for it to be remembered.
Answer with only a JSON object of this form, and nothing else:
{"facts": [{"content": "...", "memory_type": "...", "importance": 0.8}]}
If there is nothing worth remembering, answer {"facts": []}.`;

export const SYNTHESIS_PROMPT = `You merge related memories of an AI agent into one.
The user message is a JSON object {"memories": [...]} of texts that say similar things.
Write one memory that keeps every distinct fact of them all, says each only once, and prefers
the most recent or most specific wording when they disagree. Plain sentences, no list, no preamble.
Answer with only a JSON object of this form, and nothing else:
{"content": "..."}`;

export const UPDATE_JUDGE_PROMPT = `You keep an AI agent's long-term memory current.
The user message is a JSON object {"pairs": [{"pair": 1, "older": "...", "newer": "..."}]}:
each older fact is stored now, each newer fact was just learned. For each pair, decide whether
the newer fact gives a NEW VALUE for the SAME attribute of the SAME subject at the current time,
so that the older fact is no longer true. Example: older "I live in Boston", newer "We moved to
Denver last month": replaces is true.
Answer replaces false when:
- the two facts are about different people (the user and their sister, two colleagues);
- they are about different things (a laptop and a tablet, a work phone and a home phone, a
  favourite film and a favourite band) or different attributes;
- either fact is about another time: a fact scoped to the past or to a period ("In 2019 I
  worked at X", "as a kid", "last summer", "until 2020") is history, never replaced and never
  replacing;
- the newer fact adds a value instead of changing one ("I also speak French", "another dog");
- both can be true at once;
- you are not sure.
A wrong true hides a true fact from the agent: answer true only when you are sure.
"correction": true marks a newer fact the user gave as a correction; it still never replaces a
fact about another person, another thing or another time.
confidence is a number from 0 to 1: how sure you are of your answer.
Answer every pair, with only a JSON object of this form, and nothing else:
{"answers": [{"pair": 1, "replaces": false, "confidence": 0.9}]}`;

export const FACTS_JSON_SCHEMA = {
  type: "object",
  properties: {
    facts: {
      type: "array",
      items: {
        type: "object",
        properties: {
          content: { type: "string" },
          memory_type: { type: "string", enum: [...MEMORY_TYPES] },
          importance: { type: "number", minimum: 0, maximum: 1 },
        },
        required: ["content", "memory_type", "importance"],
      },
    },
  },
  required: ["facts"],
} as const;

export const SYNTHESIS_JSON_SCHEMA = {
  type: "object",
  properties: { content: { type: "string" } },
  required: ["content"],
} as const;

export const UPDATE_JUDGE_JSON_SCHEMA = {
  type: "object",
  properties: {
    answers: {
      type: "array",
      items: {
        type: "object",
        properties: {
          pair: { type: "integer", minimum: 1 },
          replaces: { type: "boolean" },
          confidence: { type: "number", minimum: 0, maximum: 1 },
        },
        required: ["pair", "replaces", "confidence"],
      },
    },
  },
  required: ["answers"],
} as const;

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** One structured request: what to send, the schema to ask for, and how to read the answer. */
export interface StructuredTask<T> {
  /** Names the task in error messages. */
  what: string;
  messages: ChatMessage[];
  jsonSchema: Record<string, unknown>;
  parse(output: unknown): Parsed<T>;
}

/** What a provider's transport returns: the answer (a string, or JSON already parsed). */
export interface Completion {
  output: unknown;
  tokens: number;
}

export type Complete = (
  messages: ChatMessage[],
  jsonSchema: Record<string, unknown>,
) => Promise<Completion>;

export function extractionTask(messages: ChatMessage[]): StructuredTask<Fact[]> {
  const conversation = messages.map(({ role, content }) => ({ role, content }));
  return {
    what: "fact extraction",
    messages: [
      { role: "system", content: EXTRACTION_PROMPT },
      { role: "user", content: JSON.stringify(conversation) },
    ],
    jsonSchema: FACTS_JSON_SCHEMA,
    parse: (output) => parseWith(output, factsSchema),
  };
}

export function synthesisTask(memories: string[]): StructuredTask<string> {
  return {
    what: "synthesis",
    messages: [
      { role: "system", content: SYNTHESIS_PROMPT },
      { role: "user", content: JSON.stringify({ memories }) },
    ],
    jsonSchema: SYNTHESIS_JSON_SCHEMA,
    parse: (output) => parseWith(output, synthesisSchema),
  };
}

/** One pair of an update judgement, as the model is shown it (numbered from 1). */
export interface JudgedFacts {
  older: string;
  newer: string;
  correction: boolean;
}

/** The model's answer for one pair. */
export interface JudgeAnswer {
  replaces: boolean;
  /** 0-1: how sure the model is of its answer. */
  confidence: number;
}

/**
 * The update judgement of `pairs` (llm/judge.ts): the answers by pair number (1-based).
 * Read defensively (see parseJudgeAnswers); an answer with no usable pair is not ok.
 */
export function judgeTask(pairs: JudgedFacts[]): StructuredTask<Map<number, JudgeAnswer>> {
  return {
    what: "update judgement",
    messages: [
      { role: "system", content: UPDATE_JUDGE_PROMPT },
      {
        role: "user",
        content: JSON.stringify({
          pairs: pairs.map((p, i) => ({
            pair: i + 1,
            older: p.older,
            newer: p.newer,
            ...(p.correction ? { correction: true } : {}),
          })),
        }),
      },
    ],
    jsonSchema: UPDATE_JUDGE_JSON_SCHEMA,
    parse: (output) => parseJudgeAnswers(output, pairs.length),
  };
}

/**
 * The answers of an update judgement of `count` pairs, by pair number. Read defensively:
 * `{"answers": [...]}` or a bare array; `pair` a number or numeric string in 1..count (when
 * no entry names its pair and there are exactly `count` entries, their order numbers them);
 * `replaces` a boolean or "true"/"false"/"yes"/"no"; `confidence` a number or numeric string
 * in 0-1 (1-100 is read as a percentage). An entry that fails any of these is left out (its
 * pair gets the rules' verdict), and so is a pair answered twice with different answers.
 */
export function parseJudgeAnswers(
  output: unknown,
  count: number,
): Parsed<Map<number, JudgeAnswer>> {
  const json = typeof output === "string" ? parseJsonLoose(output) : output;
  const list = Array.isArray(json)
    ? json
    : typeof json === "object" && json !== null && "answers" in json
      ? (json as { answers: unknown }).answers
      : undefined;
  if (!Array.isArray(list)) return { ok: false, reason: "no answers array" };
  const unnumbered = list.every(
    (e) => typeof e !== "object" || e === null || !("pair" in e) || e.pair === undefined,
  );
  const byPosition = unnumbered && list.length === count;
  const answers = new Map<number, JudgeAnswer>();
  const conflicting = new Set<number>();
  list.forEach((entry, index) => {
    if (typeof entry !== "object" || entry === null) return;
    const e = entry as Record<string, unknown>;
    const pair = byPosition ? index + 1 : toNumber(e.pair);
    const replaces = toBoolean(e.replaces);
    let confidence = toNumber(e.confidence);
    if (confidence !== undefined && confidence > 1 && confidence <= 100) confidence /= 100;
    if (
      pair === undefined ||
      !Number.isInteger(pair) ||
      pair < 1 ||
      pair > count ||
      replaces === undefined ||
      confidence === undefined ||
      confidence < 0 ||
      confidence > 1
    ) {
      return;
    }
    const earlier = answers.get(pair);
    if (earlier && (earlier.replaces !== replaces || earlier.confidence !== confidence)) {
      conflicting.add(pair);
    }
    if (!earlier) answers.set(pair, { replaces, confidence });
  });
  for (const pair of conflicting) answers.delete(pair);
  if (answers.size === 0) return { ok: false, reason: "no usable answer" };
  return { ok: true, value: answers };
}

function toNumber(x: unknown): number | undefined {
  const n = typeof x === "string" && x.trim() !== "" ? Number(x) : x;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

function toBoolean(x: unknown): boolean | undefined {
  if (typeof x === "boolean") return x;
  if (typeof x !== "string") return undefined;
  const word = x.trim().toLowerCase();
  if (word === "true" || word === "yes") return true;
  if (word === "false" || word === "no") return false;
  return undefined;
}

/**
 * Runs a task through `complete`, retrying malformed answers (see the header). Tokens of
 * every attempt are counted: they were all spent.
 */
export async function runStructured<T>(
  task: StructuredTask<T>,
  complete: Complete,
): Promise<{ value: T; tokens: number }> {
  let tokens = 0;
  let messages = task.messages;
  let reason = "no answer";
  for (let attempt = 0; attempt <= MALFORMED_RETRIES; attempt++) {
    const completion = await complete(messages, task.jsonSchema);
    tokens += completion.tokens;
    const parsed = task.parse(completion.output);
    if (parsed.ok) return { value: parsed.value, tokens };
    reason = parsed.reason;
    const previous =
      typeof completion.output === "string" ? completion.output : JSON.stringify(completion.output);
    messages = [
      ...task.messages,
      { role: "assistant", content: (previous ?? "").slice(0, 2000) },
      {
        role: "user",
        content: `That answer was not usable (${reason}). Answer again with only the JSON object described above.`,
      },
    ];
  }
  throw new ApiError(
    "BAD_GATEWAY",
    `Language model returned malformed output for ${task.what} ${MALFORMED_RETRIES + 1} times (${reason})`,
  );
}

/** The answer as JSON: as is, then without a code fence, then its first balanced {...}. */
export function parseJsonLoose(text: string): unknown {
  const candidates = [text.trim()];
  const fenced = text.match(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const object = firstObject(text);
  if (object) candidates.push(object);
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate);
    } catch {
      // the next candidate
    }
  }
  return undefined;
}

/** The first {...} of a text whose braces balance, ignoring braces inside JSON strings. */
function firstObject(text: string): string | null {
  const start = text.indexOf("{");
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

function parseWith<T>(output: unknown, schema: z.ZodType<T>): Parsed<T> {
  const json = typeof output === "string" ? parseJsonLoose(output) : output;
  if (json === undefined || json === null) return { ok: false, reason: "not JSON" };
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    reason: issue ? `${issue.path.join(".") || "answer"}: ${issue.message}` : "schema mismatch",
  };
}

const rawFact = z.object({
  content: z.string(),
  memory_type: z.unknown().optional(),
  importance: z.unknown().optional(),
});

const factsSchema = z
  .object({ facts: z.array(rawFact) })
  .transform(({ facts }) => normaliseFacts(facts));

const synthesisSchema = z
  .object({ content: z.string() })
  .transform(({ content }) =>
    cutAtWord(toStorable(content).replace(/\s+/g, " ").trim(), LIMITS.content),
  )
  .refine((content) => content.length > 0, "content is empty");

/** Normalises model facts (see the header); exported for tests. */
export function normaliseFacts(facts: z.output<typeof rawFact>[]): Fact[] {
  const out: Fact[] = [];
  const seen = new Set<string>();
  for (const f of facts) {
    const content = cutAtWord(toStorable(f.content).replace(/\s+/g, " ").trim(), LIMITS.content);
    const key = wordKey(content);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    const rules = classify(content);
    const type = typeof f.memory_type === "string" ? f.memory_type.trim().toLowerCase() : "";
    const memoryType = (MEMORY_TYPES as readonly string[]).includes(type)
      ? (type as MemoryType)
      : rules.memoryType;
    const number =
      typeof f.importance === "string" && f.importance.trim() !== ""
        ? Number(f.importance)
        : f.importance;
    const importance =
      typeof number === "number" && Number.isFinite(number)
        ? Math.min(1, Math.max(0, number))
        : rules.importance;
    out.push({ content, memory_type: memoryType, importance });
  }
  return out;
}

/** True when no message has any text: nothing to send a model. */
export function isBlank(messages: ChatMessage[]): boolean {
  return messages.every((m) => m.content.trim() === "");
}
