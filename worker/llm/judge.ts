/**
 * Update judgement by a language model (issue #45, "current facts win"): for the store that
 * ingest and extract make, whether each new fact replaces one of its nearest current memories
 * (updates/plan.ts asks once per store, with every pair). Shared by the model-backed providers
 * (openai.ts, workers-ai.ts), which only differ in how a request is sent.
 *
 * A wrong replacement hides a true fact, so precision comes first:
 * - The rules (updates/detect.ts) see every pair first. A pair they refuse because the facts
 *   are about another person, another time or a past period, or because a text is too long
 *   to be one fact (RULE_GUARDS), stays refused and is not sent: a model's yes does not
 *   override it.
 * - The others go to the model, at most JUDGE_CHUNK pairs a call, JUDGE_CONCURRENCY calls at
 *   once, with UPDATE_JUDGE_PROMPT (prompts.ts). A pair replaces only when the model answers
 *   `replaces: true` with confidence ≥ JUDGE_MIN_CONFIDENCE; any other answer is a refusal,
 *   even where the rules would have said yes.
 * - It never fails a store: a call that fails (after the transport's own retries), an answer
 *   that is not usable JSON, or a pair the answer leaves out gets the rules' verdict (no
 *   retry with a correction, as extraction does: the rules are a good answer already). A
 *   failed call and an unusable answer are logged (without the answer: it quotes memories).
 *
 * A model's verdict: `detectedBy` the provider ("openai", "workers-ai"), `rule`
 * `model:<model>`, `score` the model's confidence that the newer fact replaces (its
 * confidence for a yes, 1 − it for a no), which the relation's metadata records.
 * Tokens: what the calls made spent, as the provider counts them.
 */
import { logError } from "../lib/log";
import { type JudgedPair, rulesJudge, type UpdatePair } from "../memories/updates/plan";
import { mapConcurrent } from "./concurrency";
import { type Complete, judgeTask } from "./prompts";

/** A model's yes counts from this confidence. */
export const JUDGE_MIN_CONFIDENCE = 0.7;
/** Pairs per model call. */
export const JUDGE_CHUNK = 20;
/** Calls at once, as extraction's chunks. */
const JUDGE_CONCURRENCY = 4;

/** Refusals of the rules that a model never overrides; such pairs are not sent. */
export const RULE_GUARDS: ReadonlySet<string> = new Set([
  "other-person",
  "past-scoped",
  "other-time",
  "too-long",
  "below-similarity",
  "empty",
  "invalid-input",
  "invalid-similarity",
]);

/** A rule of RULE_GUARDS, or one of its refinements ("other-time:date"). */
const guarded = (rule: string) => RULE_GUARDS.has(rule.split(":")[0] ?? rule);

export interface ModelJudge {
  /** The relation's `detected_by`: "openai" or "workers-ai". */
  detectedBy: string;
  /** The model's name, for the verdict's rule `model:<model>`. */
  model: string;
  complete: Complete;
}

export async function judgeUpdatesWith(
  judge: ModelJudge,
  pairs: UpdatePair[],
): Promise<{ verdicts: JudgedPair[]; tokens: number }> {
  const verdicts: JudgedPair[] = await rulesJudge(pairs);
  const asked = pairs.flatMap((_, i) => (guarded(verdicts[i]?.rule ?? "") ? [] : [i]));
  const chunks: number[][] = [];
  for (let start = 0; start < asked.length; start += JUDGE_CHUNK) {
    chunks.push(asked.slice(start, start + JUDGE_CHUNK));
  }
  let tokens = 0;
  await mapConcurrent(chunks, JUDGE_CONCURRENCY, async (chunk) => {
    const task = judgeTask(
      chunk.map((i) => {
        const p = pairs[i] as UpdatePair;
        return { older: p.previous.content, newer: p.next, correction: p.correction };
      }),
    );
    let output: unknown;
    try {
      const completion = await judge.complete(task.messages, task.jsonSchema);
      tokens += completion.tokens;
      output = completion.output;
    } catch (err) {
      // The rules' verdicts stand for this chunk.
      logError(`update judgement (${judge.detectedBy}), the rules decide`, err);
      return;
    }
    const parsed = task.parse(output);
    if (!parsed.ok) {
      logError(
        `update judgement (${judge.detectedBy}): unusable answer (${parsed.reason}), the rules decide`,
      );
      return;
    }
    chunk.forEach((i, k) => {
      const answer = parsed.value.get(k + 1);
      if (!answer) return;
      const replaces = answer.replaces && answer.confidence >= JUDGE_MIN_CONFIDENCE;
      verdicts[i] = {
        replaces,
        score: round(answer.replaces ? answer.confidence : 1 - answer.confidence),
        rule: `model:${judge.model}`,
        detectedBy: judge.detectedBy,
      };
    });
  });
  return { verdicts, tokens };
}

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
