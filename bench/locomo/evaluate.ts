/**
 * Scoring for LoCoMo: puts every question to every system in turn and reduces the answers to
 * recall@k and hit@k overall and per category, latency and ingest time per system (the
 * SystemReport that goes to the JSON). Split out of the former bench/locomo/index.ts.
 */

import { log } from "../lib/report";
import { round1, summary, timingMeans } from "../lib/stats";
import { evidenceHit, evidenceRecall, type LocomoData } from "./data";
import type { Figures, Prepared, QuestionResult, System, SystemReport } from "./types";

/**
 * Systems take turns: each stores a conversation in turn, then each question is put to every
 * system before the next question, so that load from elsewhere on the machine falls on all
 * of them alike.
 */
export async function evaluate(systems: System[], data: LocomoData): Promise<SystemReport[]> {
  const results = systems.map((): QuestionResult[] => []);
  const timings = systems.map((): Array<string | null> => []);
  const ingest = systems.map((): SystemReport["ingest"] => []);
  for (const conv of data.conversations) {
    const prepared: Prepared[] = [];
    for (const [i, system] of systems.entries()) {
      const p = await system.prepare(conv);
      prepared.push(p);
      ingest[i]?.push({
        sample_id: conv.sampleId,
        turns: conv.turns.length,
        memories: p.memories,
        merged: p.merged,
        ms: round1(p.ingestMs),
        ...(p.ingestTiming ? { server_timing_ms: p.ingestTiming } : {}),
        ...(p.dedup ? { dedup: p.dedup } : {}),
      });
    }
    const askMs = systems.map(() => 0);
    for (const q of conv.questions) {
      for (const [i, p] of prepared.entries()) {
        const answer = await p.ask(q.question);
        askMs[i] = (askMs[i] ?? 0) + answer.ms;
        if (answer.timing !== undefined) timings[i]?.push(answer.timing);
        results[i]?.push({
          sample_id: conv.sampleId,
          category: q.category,
          question: q.question,
          evidence: q.evidence,
          recall: {
            1: evidenceRecall(q.evidence, answer.ranked, 1),
            5: evidenceRecall(q.evidence, answer.ranked, 5),
            10: evidenceRecall(q.evidence, answer.ranked, 10),
          },
          hit: {
            1: evidenceHit(q.evidence, answer.ranked, 1),
            5: evidenceHit(q.evidence, answer.ranked, 5),
            10: evidenceHit(q.evidence, answer.ranked, 10),
          },
          ms: round1(answer.ms),
          top: answer.ranked,
          ...(answer.signals ? { signals: answer.signals } : {}),
        });
      }
    }
    log(
      `${conv.sampleId}: ${conv.turns.length} turns, ${conv.questions.length} questions; ` +
        systems
          .map((s, i) => {
            const p = prepared[i];
            const merged = p?.merged ? ` (${p.merged} merged)` : "";
            return `${s.key} stored in ${((p?.ingestMs ?? 0) / 1000).toFixed(2)} s${merged}, answered in ${((askMs[i] ?? 0) / 1000).toFixed(2)} s`;
          })
          .join("; "),
    );
  }
  return systems.map((system, i) => {
    const r = report(system, results[i] ?? [], ingest[i] ?? [], data.categories);
    if (timings[i]?.length) r.recall_server_timing_ms = timingMeans(timings[i] ?? []);
    return r;
  });
}

function report(
  system: System,
  results: QuestionResult[],
  ingest: SystemReport["ingest"],
  categories: number[],
): SystemReport {
  return {
    key: system.key,
    label: system.label,
    overall: figures(results),
    by_category: byCategory(results, categories),
    recall_latency_ms: summary(results.map((r) => r.ms)),
    ingest,
    ingest_ms_total: round1(ingest.reduce((s, i) => s + i.ms, 0)),
    questions: results,
  };
}

/** Mean recall@k and hit@k of some questions' results. */
export function figures(results: QuestionResult[]): Figures {
  const mean = (k: 1 | 5 | 10, of: "recall" | "hit") =>
    results.reduce((s, r) => s + r[of][k], 0) / results.length;
  return {
    r1: mean(1, "recall"),
    r5: mean(5, "recall"),
    r10: mean(10, "recall"),
    h1: mean(1, "hit"),
    h5: mean(5, "hit"),
    h10: mean(10, "hit"),
  };
}

/** figures() per category; a category without questions here is left out, never NaN. */
export function byCategory(
  results: QuestionResult[],
  categories: number[],
): SystemReport["by_category"] {
  const out: SystemReport["by_category"] = {};
  for (const c of categories) {
    const rs = results.filter((r) => r.category === c);
    if (rs.length > 0) out[c] = { ...figures(rs), questions: rs.length };
  }
  return out;
}
