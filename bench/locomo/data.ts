/**
 * LoCoMo (../shared/datasets/locomo/, read in place, never copied), or any dataset in its
 * layout (REALTALK, ../shared/datasets/realtalk/): conversations of two
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
  profile: DatasetProfile;
  /** The profile's categories that have questions here, in order: the ones reported. */
  categories: number[];
  conversations: Conversation[];
  /** Evidence ids that needed repair ("D:11:26" → "D11:26", "D8:6; D9:17" → two ids). */
  evidenceRepaired: number;
  /** Evidence ids naming no turn of the conversation, dropped. */
  evidenceDropped: string[];
  /** Questions of scored categories left without any evidence, excluded. */
  questionsWithoutEvidence: number;
}

/**
 * What a dataset in LoCoMo's layout calls its question categories, and which it scores. The
 * layout carries numbers only; the names are the dataset's own (its README).
 */
export interface DatasetProfile {
  name: string;
  /** Scored categories and their names; questions of any other category are left out. */
  categories: Record<number, string>;
}

/** LoCoMo: 5 (adversarial) has no answer in the conversation, so it is not scored. */
export const LOCOMO: DatasetProfile = {
  name: "LoCoMo",
  categories: { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" },
};

/** REALTALK converted to LoCoMo's layout (../shared/datasets/realtalk/README.md). */
export const REALTALK: DatasetProfile = {
  name: "REALTALK",
  categories: { 1: "multi-hop", 2: "temporal", 3: "commonsense" },
};

/**
 * The profile of a dataset file: REALTALK's when its file name says so or its samples are
 * REALTALK's chats (sample ids "Chat_<n>_…"), else LoCoMo's. `categories`, the bench's
 * --categories ("1=multi-hop,2=temporal"), names the scored categories of any other dataset.
 */
export function datasetProfile(
  path: string,
  sampleIds: string[],
  categories?: string,
): DatasetProfile {
  const realtalk =
    /realtalk/i.test(path.split("/").pop() ?? "") ||
    (sampleIds.length > 0 && sampleIds.every((id) => /^Chat_\d+_/.test(id)));
  const base = realtalk ? REALTALK : LOCOMO;
  if (categories === undefined) return base;
  const named: Record<number, string> = {};
  for (const part of categories.split(",")) {
    const m = part.trim().match(/^(\d+)\s*=\s*(.+)$/);
    if (!m) throw new Error(`--categories takes "1=name,2=name", got "${part.trim()}"`);
    named[Number(m[1])] = (m[2] ?? "").trim();
  }
  return { name: base.name, categories: named };
}

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

export function loadLocomo(path: string, categories?: string): LocomoData {
  const samples = JSON.parse(readFileSync(path, "utf8")) as RawSample[];
  const profile = datasetProfile(
    path,
    samples.map((s) => s.sample_id),
    categories,
  );
  const scored = (c: number) => Object.hasOwn(profile.categories, c);
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
      if (!scored(qa.category)) continue;
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
  const asked = new Set(conversations.flatMap((c) => c.questions.map((q) => q.category)));
  return {
    profile,
    categories: Object.keys(profile.categories)
      .map(Number)
      .filter((c) => asked.has(c))
      .sort((a, b) => a - b),
    conversations,
    evidenceRepaired,
    evidenceDropped,
    questionsWithoutEvidence,
  };
}

/**
 * A slice of a dataset (the bench's --conversations and --questions, --smoke's small run):
 * its first `conversations` conversations, each with all its turns and its first `questions`
 * scored questions; undefined keeps them all. The categories reported are those still asked.
 */
export function sliceLocomo(
  data: LocomoData,
  slice: { conversations?: number; questions?: number },
): LocomoData {
  const conversations = data.conversations
    .slice(0, slice.conversations)
    .map((c) => ({ ...c, questions: c.questions.slice(0, slice.questions) }));
  const asked = new Set(conversations.flatMap((c) => c.questions.map((q) => q.category)));
  return { ...data, conversations, categories: data.categories.filter((c) => asked.has(c)) };
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
