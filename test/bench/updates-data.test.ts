/**
 * The knowledge-update set's shape (bench/updates/data.ts): enough updates over enough kinds,
 * enough controls of each shape, and no update whose new text shares a content word with its
 * old one (so word overlap cannot tie them); and every item finds its fifteen unrelated
 * distractors (bench/updates/index.ts).
 */
import { describe, expect, it } from "vitest";
import {
  CONTROL_SHAPES,
  CONTROLS,
  DISTRACTORS,
  UPDATE_KINDS,
  UPDATES,
} from "../../bench/updates/data";
import { buildItems, DISTRACTORS_PER_ITEM } from "../../bench/updates/index";
import { contentWords, sharedWords } from "../../bench/updates/words";

describe("the knowledge-update set", () => {
  it("has at least 100 updates over at least 10 kinds, at least 5 of each", () => {
    expect(UPDATES.length).toBeGreaterThanOrEqual(100);
    expect(UPDATE_KINDS.length).toBeGreaterThanOrEqual(10);
    for (const kind of UPDATE_KINDS) {
      expect(UPDATES.filter((u) => u.kind === kind).length, kind).toBeGreaterThanOrEqual(5);
    }
  });

  it("has at least 40 controls, at least 10 of each shape, asking for either fact", () => {
    expect(CONTROLS.length).toBeGreaterThanOrEqual(40);
    for (const shape of CONTROL_SHAPES) {
      expect(CONTROLS.filter((c) => c.shape === shape).length, shape).toBeGreaterThanOrEqual(10);
    }
    expect(CONTROLS.filter((c) => c.answer === "first").length).toBeGreaterThanOrEqual(10);
    expect(CONTROLS.filter((c) => c.answer === "second").length).toBeGreaterThanOrEqual(10);
  });

  it("words every update's new fact without its old fact's content words", () => {
    const overlapping = UPDATES.map((u) => ({
      id: u.id,
      shared: sharedWords(u.old, u.new),
    })).filter((u) => u.shared.length > 0);
    expect(overlapping).toEqual([]);
  });

  it("counts stop words, contraction tails and inflections as the check means", () => {
    expect([...contentWords("I'm moving to the city")]).toEqual(["mov", "city"]);
    expect(sharedWords("We moved house", "I keep moving")).toEqual(["mov"]);
    expect(sharedWords("I live in Boston", "We finally moved to Denver")).toEqual([]);
  });

  it("has unique ids and texts, and a question for every item", () => {
    const ids = [...UPDATES.map((u) => u.id), ...CONTROLS.map((c) => c.id)];
    expect(new Set(ids).size).toBe(ids.length);
    const texts = [
      ...UPDATES.flatMap((u) => [u.old, u.new]),
      ...CONTROLS.flatMap((c) => [c.first, c.second]),
      ...DISTRACTORS,
    ];
    expect(new Set(texts).size).toBe(texts.length);
    for (const item of [...UPDATES, ...CONTROLS]) expect(item.question).toMatch(/\?$/);
  });

  it("gives every item fifteen distinct distractors sharing no content word with it", () => {
    const items = buildItems();
    expect(items.length).toBe(UPDATES.length + CONTROLS.length);
    for (const item of items) {
      expect(new Set(item.distractors).size).toBe(DISTRACTORS_PER_ITEM);
      for (const d of item.distractors) {
        for (const t of [item.first, item.second, item.question]) {
          expect(sharedWords(d, t), `${item.id}: ${d}`).toEqual([]);
        }
      }
    }
  });

  it("spreads a smaller run over the set, controls in proportion", () => {
    const items = buildItems(24);
    expect(items.filter((i) => i.set === "update").length).toBe(24);
    expect(new Set(items.filter((i) => i.set === "update").map((i) => i.group)).size).toBe(20);
    expect(items.filter((i) => i.set === "control").length).toBe(9);
  });
});
