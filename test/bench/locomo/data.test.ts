/**
 * The quality benchmark's reading of datasets in LoCoMo's layout (bench/locomo/data.ts)
 * and its tables: each dataset's own name and category names, categories without questions
 * left out (never 0 or NaN), and the held-out conversations reported apart.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { datasetProfile, LOCOMO, loadLocomo, REALTALK } from "../../../bench/locomo/data";
import { byCategory } from "../../../bench/locomo/evaluate";
import { locomoTables } from "../../../bench/locomo/tables";
import type { QuestionResult, SystemReport } from "../../../bench/locomo/types";

const SHARED = resolve(__dirname, "../../../../shared/datasets");

function result(sampleId: string, category: number, found: number): QuestionResult {
  const at = { 1: found, 5: found, 10: found };
  return {
    sample_id: sampleId,
    category,
    question: "q",
    evidence: ["D1:1"],
    recall: at,
    hit: at,
    ms: 1,
    top: [],
  };
}

function report(key: string, questions: QuestionResult[], categories: number[]): SystemReport {
  const all = byCategory(questions, categories);
  return {
    key,
    label: key,
    overall: { r1: 0.5, r5: 0.5, r10: 0.5, h1: 0.5, h5: 0.5, h10: 0.5 },
    by_category: Object.fromEntries(categories.flatMap((c) => (all[c] ? [[c, all[c]]] : []))),
    recall_latency_ms: { n: 1, mean: 1, p50: 1, p95: 1, p99: 1, max: 1 },
    ingest: [],
    ingest_ms_total: 1,
    questions,
  } as SystemReport;
}

describe("the quality benchmark's datasets", () => {
  it("reads REALTALK with its own categories: 1 multi-hop, 2 temporal, 3 commonsense", () => {
    const data = loadLocomo(`${SHARED}/realtalk/realtalk-dev.json`);
    expect(data.profile).toEqual(REALTALK);
    expect(data.categories).toEqual([1, 2, 3]);
    const questions = data.conversations.flatMap((c) => c.questions);
    expect(questions.length).toBe(358);
    expect(new Set(questions.map((q) => q.category))).toEqual(new Set([1, 2, 3]));
  });

  it("reads LoCoMo with its four scored categories and leaves out 5 (adversarial)", () => {
    const data = loadLocomo(`${SHARED}/locomo/locomo-dev.json`);
    expect(data.profile).toEqual(LOCOMO);
    expect(data.categories).toEqual([1, 2, 3, 4]);
    expect(data.conversations.flatMap((c) => c.questions).some((q) => q.category === 5)).toBe(
      false,
    );
  });

  it("knows REALTALK by its chats under any file name, and takes names from --categories", () => {
    expect(datasetProfile("/x/held-back.json", ["Chat_7_A_B", "Chat_9_C_D"]).name).toBe("REALTALK");
    expect(datasetProfile("/x/held-back.json", ["conv-50"]).name).toBe("LoCoMo");
    expect(datasetProfile("/x/mine.json", ["a"], "1=who, 2 = when").categories).toEqual({
      1: "who",
      2: "when",
    });
    expect(() => datasetProfile("/x/mine.json", ["a"], "one=who")).toThrow(/--categories/);
  });

  it("prints the dataset's names, no column for a category without questions, and the held-out split", () => {
    const data = loadLocomo(`${SHARED}/realtalk/realtalk-dev.json`);
    const [a, b] = data.conversations.map((c) => c.sampleId) as [string, string];
    const questions = [result(a, 1, 1), result(a, 2, 0), result(b, 3, 1), result(b, 2, 1)];
    const ours = report("ours", questions, data.categories);
    const other = report(
      "bm25",
      questions.map((q) => ({ ...q, recall: { 1: 0, 5: 0, 10: 0 } })),
      data.categories,
    );
    const tables = locomoTables([ours, other], data, 10, 4, "bge", [b]);
    const text = JSON.stringify(tables);
    expect(tables[0]?.title).toMatch(/^REALTALK /);
    expect(tables[1]?.header).toContain("commonsense R@10");
    expect(text).not.toMatch(/single-hop|open-domain|NaN/);
    expect(tables[1]?.header.filter((h) => h.endsWith("R@10"))).toHaveLength(3);
    const held = tables[3];
    expect(held?.title).toMatch(/held out/);
    const heldRow = held?.rows.find((r) => r[0] === "ours, held out");
    // b's questions: categories 3 and 2, both found; category 1 has none there: blank.
    expect(heldRow).toEqual(["ours, held out", "100.0", "100.0", "", "100.0", "100.0"]);
    const lead = tables[1]?.rows.find((r) => r[0] === "ours − best other, points");
    expect(lead?.[3]).toBe("+100.0");
  });
});
