/**
 * Scoring for LoCoMo: puts every question to every system in turn and reduces the answers to
 * recall@k and hit@k overall and per category, latency and ingest time per system (the
 * SystemReport that goes to the JSON). Split out of the former scripts/bench/locomo.ts.
 */
import { CATEGORIES, evidenceHit, evidenceRecall, type LocomoData } from "../locomo-data";
import { log } from "../report";
import { round1, summary, timingMeans } from "../stats";
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
    const r = report(system, results[i] ?? [], ingest[i] ?? []);
    if (timings[i]?.length) r.recall_server_timing_ms = timingMeans(timings[i] ?? []);
    return r;
  });
}

function report(
  system: System,
  results: QuestionResult[],
  ingest: SystemReport["ingest"],
): SystemReport {
  const mean = (rs: QuestionResult[], k: 1 | 5 | 10, of: "recall" | "hit" = "recall") =>
    rs.reduce((s, r) => s + r[of][k], 0) / rs.length;
  const agg = (rs: QuestionResult[]): Figures => ({
    r1: mean(rs, 1),
    r5: mean(rs, 5),
    r10: mean(rs, 10),
    h1: mean(rs, 1, "hit"),
    h5: mean(rs, 5, "hit"),
    h10: mean(rs, 10, "hit"),
  });
  return {
    key: system.key,
    label: system.label,
    overall: agg(results),
    by_category: Object.fromEntries(
      CATEGORIES.map((c) => {
        const rs = results.filter((r) => r.category === c);
        return [c, { ...agg(rs), questions: rs.length }];
      }),
    ),
    recall_latency_ms: summary(results.map((r) => r.ms)),
    ingest,
    ingest_ms_total: round1(ingest.reduce((s, i) => s + i.ms, 0)),
    questions: results,
  };
}
