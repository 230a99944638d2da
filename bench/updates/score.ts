/**
 * The knowledge-update part's figures and tables: per item, where the asked fact and the
 * other fact of its pair came in the list; per system, the shares below. An update asks for
 * its second (newer) fact; a control for the one its question names.
 *
 * - current above replaced: the new fact is in the list and the old one is not, or is below it;
 * - current @1, current in top 5;
 * - replaced in top 5: the old fact among the first five for a question about now (what #45
 *   is to bring down);
 * - controls: the asked fact in the top 3, and above the other fact of its pair;
 * - ours only: pairs the service linked with `supersedes` (updates: recognised; controls:
 *   wrongly replaced), and `supersedes` links to anything else (stray).
 */
import { fmt, pctCell, ratio, type Table } from "../lib/report";
import { type LatencySummary, summary } from "../lib/stats";
import type { Answer, Role } from "./systems";

export interface ItemResult {
  id: string;
  set: "update" | "control";
  /** An update's kind or a control's shape. */
  group: string;
  asked: "first" | "second";
  /** 1-based place in the list, null when absent. */
  rank_asked: number | null;
  rank_other: number | null;
  /** The two facts were stored as one memory (deduplication). */
  merged: boolean;
  ms: number;
  pair_linked?: boolean;
  stray_links?: number;
  top: Role[];
}

export function itemResult(
  base: Pick<ItemResult, "id" | "set" | "group" | "asked">,
  answer: Answer,
): ItemResult {
  const other = base.asked === "first" ? "second" : "first";
  const place = (role: Role) => {
    const i = answer.roles.findIndex((r) => r === role || r === "both");
    return i < 0 ? null : i + 1;
  };
  return {
    ...base,
    rank_asked: place(base.asked),
    rank_other: place(other),
    merged: answer.roles.includes("both"),
    ms: Math.round(answer.ms * 10) / 10,
    ...(answer.pairLinked === undefined ? {} : { pair_linked: answer.pairLinked }),
    ...(answer.strayLinks === undefined ? {} : { stray_links: answer.strayLinks }),
    top: answer.roles,
  };
}

const within = (rank: number | null, k: number) => rank !== null && rank <= k;
const above = (r: ItemResult) =>
  r.rank_asked !== null && (r.rank_other === null || r.rank_asked < r.rank_other);

export interface Figures {
  updates: number;
  controls: number;
  current_above_replaced: number;
  current_at_1: number;
  current_in_top5: number;
  replaced_in_top5: number;
  controls_asked_in_top3: number;
  controls_asked_above_other: number;
  /** Counts, ours only (null for the others: they never link memories). */
  updates_recognised: number | null;
  controls_wrongly_replaced: number | null;
  stray_links: number | null;
  merged_pairs: number;
  recall_ms: LatencySummary;
}

export function figures(results: ItemResult[]): Figures {
  const updates = results.filter((r) => r.set === "update");
  const controls = results.filter((r) => r.set === "control");
  const share = (list: ItemResult[], test: (r: ItemResult) => boolean) =>
    list.length === 0 ? Number.NaN : list.filter(test).length / list.length;
  const ours = results.some((r) => r.pair_linked !== undefined);
  const count = (list: ItemResult[], test: (r: ItemResult) => boolean) =>
    ours ? list.filter(test).length : null;
  return {
    updates: updates.length,
    controls: controls.length,
    current_above_replaced: share(updates, above),
    current_at_1: share(updates, (r) => r.rank_asked === 1),
    current_in_top5: share(updates, (r) => within(r.rank_asked, 5)),
    replaced_in_top5: share(updates, (r) => within(r.rank_other, 5)),
    controls_asked_in_top3: share(controls, (r) => within(r.rank_asked, 3)),
    controls_asked_above_other: share(controls, above),
    updates_recognised: count(updates, (r) => r.pair_linked === true),
    controls_wrongly_replaced: count(controls, (r) => r.pair_linked === true),
    stray_links: ours ? results.reduce((n, r) => n + (r.stray_links ?? 0), 0) : null,
    merged_pairs: results.filter((r) => r.merged).length,
    recall_ms: summary(results.map((r) => r.ms)),
  };
}

export interface SystemOutcome {
  key: string;
  label: string;
  figures: Figures;
  by_group: Record<string, { items: number; asked_above_other: number }>;
  items: ItemResult[];
}

export function outcome(key: string, label: string, items: ItemResult[]): SystemOutcome {
  const groups = [...new Set(items.map((r) => r.group))];
  return {
    key,
    label,
    figures: figures(items),
    by_group: Object.fromEntries(
      groups.map((g) => {
        const of = items.filter((r) => r.group === g);
        return [g, { items: of.length, asked_above_other: of.filter(above).length }];
      }),
    ),
    items,
  };
}

/** "3/6" style cell. */
const countCell = (n: number | null, of: number) => (n === null ? "—" : `${n}/${of}`);

export function updatesTables(systems: SystemOutcome[], embedder: string): Table[] {
  const ours = systems.find((s) => s.key === "ours");
  const mem0 = systems.find((s) => s.key === "mem0");
  const head = systems[0]?.figures;
  const nu = head?.updates ?? 0;
  const nc = head?.controls ?? 0;
  const row = (s: SystemOutcome) => {
    const f = s.figures;
    return [
      s.label,
      pctCell(f.current_above_replaced),
      pctCell(f.current_at_1),
      pctCell(f.current_in_top5),
      pctCell(f.replaced_in_top5),
      pctCell(f.controls_asked_in_top3),
      pctCell(f.controls_asked_above_other),
      countCell(f.updates_recognised, nu),
      countCell(f.controls_wrongly_replaced, nc),
      fmt(f.recall_ms.p50, 2),
    ];
  };
  const rows = systems.map(row);
  if (ours && mem0) {
    const keys = [
      "current_above_replaced",
      "current_at_1",
      "current_in_top5",
      "replaced_in_top5",
      "controls_asked_in_top3",
      "controls_asked_above_other",
    ] as const;
    rows.push([
      "ours / Mem0",
      ...keys.map((k) => ratio(ours.figures[k], mem0.figures[k])),
      "",
      "",
      ratio(ours.figures.recall_ms.p50, mem0.figures.recall_ms.p50),
    ]);
  }
  const groups = [...new Set(systems.flatMap((s) => Object.keys(s.by_group)))];
  return [
    {
      title: `Knowledge updates, ${embedder}: ${nu} updates, ${nc} controls, 15 distractors between the two facts, recall limit 10`,
      header: [
        "system",
        "current above replaced %",
        "current @1 %",
        "current in top 5 %",
        "replaced in top 5 %",
        "controls: asked in top 3 %",
        "controls: asked above other %",
        "updates linked (supersedes)",
        "controls wrongly replaced",
        "recall p50 ms",
      ],
      rows,
      notes: [
        "Higher is better except 'replaced in top 5' (the old fact among the first five for a question about now) and 'controls wrongly replaced'.",
        "Links are read from the service (GET /v1/memories/{id}/relations); — for systems that never link memories.",
        ...(systems.some((s) => s.figures.merged_pairs > 0)
          ? [
              `Pairs stored as one memory by deduplication: ${systems.map((s) => `${s.key} ${s.figures.merged_pairs}`).join(", ")}.`,
            ]
          : []),
        ...(ours?.figures.stray_links
          ? [`supersedes links to other memories (stray): ${ours.figures.stray_links}.`]
          : []),
      ],
    },
    {
      title: `Knowledge updates by kind (updates: current above replaced) and control shape (asked above other), ${embedder}`,
      header: ["kind or shape", "items", ...systems.map((s) => s.key)],
      rows: groups.map((g) => {
        const n = systems[0]?.by_group[g]?.items ?? 0;
        return [
          g,
          String(n),
          ...systems.map((s) => String(s.by_group[g]?.asked_above_other ?? "")),
        ];
      }),
    },
  ];
}
