/**
 * LoCoMo (../shared/datasets/locomo/, read in place, never copied): conversations of two
 * speakers over many dated sessions, and questions whose `evidence` names the dialogue turns
 * (`dia_id`, "D<session>:<turn>") that answer them. Each turn becomes one memory whose content
 * carries the session date and the speaker, plus the image caption when the turn shares a
 * photo; all systems are given the same content strings.
 */
import { readFileSync } from "node:fs";

export interface Turn {
  diaId: string;
  session: number;
  content: string;
}

export interface Question {
  question: string;
  category: number;
  evidence: string[];
}

export interface Conversation {
  sampleId: string;
  turns: Turn[];
  questions: Question[];
}

export interface LocomoData {
  conversations: Conversation[];
  /** Evidence ids that needed repair ("D:11:26" → "D11:26", "D8:6; D9:17" → two ids). */
  evidenceRepaired: number;
  /** Evidence ids naming no turn of the conversation, dropped. */
  evidenceDropped: string[];
  /** Questions of categories 1-4 left without any evidence, excluded. */
  questionsWithoutEvidence: number;
}

/** Categories scored (5, adversarial, has no answer in the conversation). */
export const CATEGORIES = [1, 2, 3, 4] as const;
export const CATEGORY_NAMES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: Array<{ question: string; category: number; evidence?: unknown[] }>;
}

export function turnContent(date: string, turn: RawTurn): string {
  const caption = turn.blip_caption ? ` [shares ${turn.blip_caption}]` : "";
  return `[${date}] ${turn.speaker}: ${turn.text}${caption}`;
}

/** "D:11:26" → "D11:26", "D30:05" → "D30:5"; undefined when it is no dia_id at all. */
export function normaliseDiaId(raw: string): string | undefined {
  const m = raw.trim().match(/^D:?(\d+):(\d+)$/);
  return m ? `D${Number(m[1])}:${Number(m[2])}` : undefined;
}

export function loadLocomo(path: string): LocomoData {
  const samples = JSON.parse(readFileSync(path, "utf8")) as RawSample[];
  let evidenceRepaired = 0;
  const evidenceDropped: string[] = [];
  let questionsWithoutEvidence = 0;

  const conversations = samples.map((sample): Conversation => {
    const conv = sample.conversation;
    const sessions = Object.keys(conv)
      .map((k) => k.match(/^session_(\d+)$/)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    const turns: Turn[] = [];
    for (const n of sessions) {
      const date = String(conv[`session_${n}_date_time`] ?? "");
      for (const turn of conv[`session_${n}`] as RawTurn[]) {
        turns.push({
          diaId: normaliseDiaId(turn.dia_id) ?? turn.dia_id,
          session: n,
          content: turnContent(date, turn),
        });
      }
    }
    const known = new Set(turns.map((t) => t.diaId));

    const questions: Question[] = [];
    for (const qa of sample.qa) {
      if (!(CATEGORIES as readonly number[]).includes(qa.category)) continue;
      const evidence = new Set<string>();
      for (const raw of qa.evidence ?? []) {
        const parts = String(raw).split(/[;,]/);
        for (const part of parts) {
          const id = normaliseDiaId(part);
          if (id !== undefined && (parts.length > 1 || id !== String(raw))) evidenceRepaired += 1;
          if (id !== undefined && known.has(id)) evidence.add(id);
          else evidenceDropped.push(`${sample.sample_id}:${part.trim()}`);
        }
      }
      if (evidence.size === 0) {
        questionsWithoutEvidence += 1;
        continue;
      }
      questions.push({ question: qa.question, category: qa.category, evidence: [...evidence] });
    }
    return { sampleId: sample.sample_id, turns, questions };
  });
  return { conversations, evidenceRepaired, evidenceDropped, questionsWithoutEvidence };
}

/** Fraction of the evidence found among the dia_ids of the first k results. */
export function evidenceRecall(evidence: string[], ranked: string[][], k: number): number {
  const found = new Set(ranked.slice(0, k).flat());
  return evidence.filter((e) => found.has(e)).length / evidence.length;
}

/** 1 when any evidence turn is among the dia_ids of the first k results (hit@k), else 0. */
export function evidenceHit(evidence: string[], ranked: string[][], k: number): number {
  const found = new Set(ranked.slice(0, k).flat());
  return evidence.some((e) => found.has(e)) ? 1 : 0;
}
