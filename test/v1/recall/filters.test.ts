/**
 * POST /v1/recall: filters apply before the candidate limit, so a filtered page is never
 * short even when the filtered-out memories match the query far better.
 */
import { describe, expect, it } from "vitest";
import { ids, newWallet, sleep, sorted, type Wallet } from "../../helpers";
import { recall } from "./fixtures";

const NOISE_QUERY = "kubernetes cluster autoscaling node pool upgrade";
const NOISE_WORDS = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliet",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
  "uniform",
  "victor",
  "whiskey",
  "xray",
  "yankee",
  "zulu",
  "amber",
  "basalt",
  "cedar",
  "dune",
];

/** Every noise text has the whole query plus four words no other noise text has together. */
function noiseContent(i: number): string {
  const a = Math.floor(i / 30);
  const b = i % 30;
  const words = [b, (b + 1 + a * 7) % 30, (b * 3 + a * 11 + 2) % 30, (b * 7 + a * 13 + 5) % 30];
  return `${NOISE_QUERY} runbook ${words.map((k) => NOISE_WORDS[k]).join(" ")} step ${i}`;
}

const GROUPS = {
  namespace: [
    "Grandma's lemon cake recipe uses three eggs and butter",
    "The violin lesson moved to Saturday afternoon",
    "Remember to renew the passport before summer travel",
  ],
  tags: [
    "Buy fresh basil and mozzarella for the caprese salad",
    "The library book about volcanoes is due next week",
    "Call the plumber about the leaking bathroom faucet",
  ],
  session: [
    "The hiking trail to the waterfall takes four hours",
    "Marco's birthday dinner is at the Italian restaurant",
    "The car insurance renewal letter arrived yesterday",
  ],
  agent: [
    "Paint the bedroom walls a soft shade of green",
    "The chess tournament starts at ten in the morning",
    "Order new running shoes in size forty-three",
  ],
  decision: [
    "We chose the blue logo variant for the brochure",
    "The family agreed to adopt a rescue dog in spring",
    "Dinner guests get vegetarian lasagna instead of fish",
  ],
  pinned: [
    "Emergency contact is Aunt Rosa at the downtown clinic",
    "The spare house key hides under the ceramic frog",
    "Allergic reaction to penicillin noted by the doctor",
  ],
  metadata: [
    "The telescope eyepiece needs a lens cleaning cloth",
    "Sunflower seeds sprout faster in warm damp soil",
    "The bakery on Elm street sells rye bread on Fridays",
  ],
  early: [
    "The old bicycle chain squeaks and needs oil",
    "Winter coats were donated to the shelter",
    "The piano tuner visits twice a year",
  ],
  late: [
    "The museum exhibit on ancient Egypt closes in May",
    "Knitting a scarf with merino wool for Lena",
    "The cinema shows silent films on Tuesday nights",
  ],
};
type Group = keyof typeof GROUPS;

interface FilterFixture {
  w: Wallet;
  groups: Record<Group, string[]>;
  noise: string[];
  earlyCreated: string;
  lateCreated: string;
}

/**
 * 120 memories in namespace "noise" that match the query strongly, and nine groups of three
 * that do not match it at all, each selected by exactly one filter. "early" is stored before
 * the noise and "late" after everything else.
 */
async function filterFixture(): Promise<FilterFixture> {
  const w = newWallet();
  const groups = {} as Record<Group, string[]>;
  groups.early = await w.storeMany(GROUPS.early.map((content) => ({ content })));
  await sleep(30);
  const noise = await w.storeMany(
    Array.from({ length: 120 }, (_, i) => ({
      content: noiseContent(i),
      namespace: "noise",
      importance: 1,
    })),
  );
  await sleep(30);
  const fields: Record<Exclude<Group, "early" | "late">, Record<string, unknown>> = {
    namespace: { namespace: "target" },
    tags: { tags: ["needle"] },
    session: { session_id: "s-target" },
    agent: { agent_id: "a-target" },
    decision: { memory_type: "decision" },
    pinned: { pinned: true },
    metadata: { metadata: { project: "apollo", level: 2 } },
  };
  const middle = Object.keys(fields) as Array<keyof typeof fields>;
  const middleIds = await w.storeMany(
    middle.flatMap((g) => GROUPS[g].map((content) => ({ content, importance: 0, ...fields[g] }))),
  );
  for (const [k, g] of middle.entries()) groups[g] = middleIds.slice(k * 3, k * 3 + 3);
  await sleep(30);
  groups.late = await w.storeMany(GROUPS.late.map((content) => ({ content })));
  const earlyCreated = (await w.getMemory(groups.early[2] as string)).created_at as string;
  const lateCreated = (await w.getMemory(groups.late[0] as string)).created_at as string;
  const noiseCreated = (await w.getMemory(noise[0] as string)).created_at as string;
  const middleCreated = (await w.getMemory(middleIds[0] as string)).created_at as string;
  // Preconditions of the date filters: the batches have distinct (millisecond) timestamps.
  expect(Date.parse(noiseCreated)).toBeGreaterThan(Date.parse(earlyCreated));
  expect(Date.parse(middleCreated)).toBeGreaterThan(Date.parse(noiseCreated));
  expect(Date.parse(lateCreated)).toBeGreaterThan(Date.parse(middleCreated));
  return { w, groups, noise, earlyCreated, lateCreated };
}

describe("POST /v1/recall: filters apply before the candidate limit", () => {
  it("each filter returns exactly its three weak matches, never a short page", async () => {
    const fx = await filterFixture();
    const { w, groups } = fx;

    // Without a filter the noise dominates: none of the targets makes the first 50.
    const unfiltered = await recall(w, { query: NOISE_QUERY, limit: 50 });
    expect(unfiltered.memories).toHaveLength(50);
    const noiseSet = new Set(fx.noise);
    for (const m of unfiltered.memories) expect(noiseSet.has(m.id)).toBe(true);

    const cases: Array<[string, Record<string, unknown>, string[]]> = [
      ["namespace", { namespace: "target" }, groups.namespace],
      ["tags", { filters: { tags: ["needle"] } }, groups.tags],
      ["session_id", { session_id: "s-target" }, groups.session],
      ["agent_id", { agent_id: "a-target" }, groups.agent],
      ["memory_type", { filters: { memory_type: "decision" } }, groups.decision],
      ["pinned", { filters: { pinned: true } }, groups.pinned],
      ["metadata", { filters: { metadata: { project: "apollo" } } }, groups.metadata],
      ["filters.before", { filters: { before: fx.earlyCreated } }, groups.early],
      ["until", { until: fx.earlyCreated }, groups.early],
      ["filters.after", { filters: { after: fx.lateCreated } }, groups.late],
      ["since", { since: fx.lateCreated }, groups.late],
    ];
    for (const [name, filter, expected] of cases) {
      const page = await recall(w, { query: NOISE_QUERY, limit: 3, ...filter });
      expect(sorted(ids(page)), name).toEqual(sorted(expected));
      const wide = await recall(w, { query: NOISE_QUERY, limit: 20, ...filter });
      expect(sorted(ids(wide)), `${name} (limit 20)`).toEqual(sorted(expected));
      for (const m of wide.memories) {
        expect(m._signals.keyword, name).toBe(0);
      }
    }
  });

  it("combined filters intersect and a filter matching nothing returns an empty page", async () => {
    const fx = await filterFixture();
    const { w, groups } = fx;
    const both = await recall(w, {
      query: NOISE_QUERY,
      namespace: "noise",
      filters: { after: fx.lateCreated },
    });
    expect(both.memories).toEqual([]);
    const tagged = await recall(w, {
      query: NOISE_QUERY,
      limit: 10,
      filters: { tags: ["needle"], memory_type: "general" },
    });
    expect(sorted(ids(tagged))).toEqual(sorted(groups.tags));
    const metaTags = await recall(w, {
      query: NOISE_QUERY,
      limit: 10,
      filters: { metadata: { tags: ["needle"] } },
    });
    expect(sorted(ids(metaTags))).toEqual(sorted(groups.tags));
    const noisePage = await recall(w, { query: NOISE_QUERY, limit: 3, namespace: "noise" });
    expect(noisePage.memories).toHaveLength(3);
    for (const m of noisePage.memories) expect(fx.noise).toContain(m.id);
    const nothing = await recall(w, { query: NOISE_QUERY, namespace: "nowhere" });
    expect(nothing.memories).toEqual([]);
    expect(nothing.query_tokens).toBeGreaterThan(0);
  });
});
