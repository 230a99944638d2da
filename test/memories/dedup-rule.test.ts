import { describe, expect, it } from "vitest";
import { distinguishingWords, type MergedText, mergeText } from "../../worker/memories/dedup-rule";

describe("distinguishingWords", () => {
  // On store, a pronoun says who is meant. REALTALK's first pair merged into one memory
  // before, and its first text was lost.
  it.each([
    ["What about Kate?", "What about you Kate?", ["you"]],
    ["He moved to Denver", "She moved to Denver", ["he", "she"]],
    ["My sister plays the cello", "Your sister plays the cello", ["my", "your"]],
  ])("%s / %s differ in %j on store, in nothing for clusters", (a, b, words) => {
    expect(distinguishingWords(a, b, true).sort()).toEqual([...words].sort());
    expect(distinguishingWords(a, b)).toEqual([]);
  });

  // Pairs a real model scores ≥ 0.9 (bge-small-en-v1.5 cosines from the issue and the model
  // tests), which must stay two memories.
  it.each([
    [
      "Caroline went to the LGBTQ support group on 7 May 2023",
      "Caroline went to the LGBTQ support group on 20 July 2023",
      ["7", "may", "20", "july"],
    ],
    ["I have two cats", "I have three cats", ["two", "three"]],
    ["The user likes coffee", "The user does not like coffee", ["not"]],
    ["The user likes coffee", "The user doesn't like coffee", ["doesn't"]],
    ["Alice leads the design team", "Bob leads the design team", ["alice", "bob"]],
    [
      "The standup moved to the morning",
      "The standup moved to the evening",
      ["morning", "evening"],
    ],
    ["We ship on Friday", "We ship on Thursday", ["friday", "thursday"]],
    ["The budget is $1,200", "The budget is $1,500", ["500", "200"]],
    ["I met Sam at the conference", "I met Priya at the conference", ["sam", "priya"]],
  ])("%s / %s differ in %j", (a, b, words) => {
    expect(distinguishingWords(a, b).sort()).toEqual([...words].sort());
  });

  it.each([
    ["The user prefers dark mode", "User likes dark mode"],
    ["The user drinks coffee every morning", "Every morning the user drinks coffee"],
    ["The project deadline is Friday", "The project's deadline is on Friday"],
    ["Ana prefers green tea in the morning", "Ana prefers green tea in the mornings"],
    [
      "The deploy pipeline runs every Friday at noon",
      "THE DEPLOY PIPELINE RUNS EVERY FRIDAY AT NOON",
    ],
    ["I think it's fine", "I guess it's fine"],
  ])("%s / %s differ in nothing that carries a fact", (a, b) => {
    expect(distinguishingWords(a, b)).toEqual([]);
  });
});

const long = "word ".repeat(900);

describe("mergeText", () => {
  it.each<[rule: string, existing: string, incoming: string, merged: MergedText | null]>([
    [
      "keeps the existing text when it contains the new one, ignoring case and spacing",
      "The deploy runs every Friday at noon.",
      "the deploy  runs every FRIDAY",
      { kind: "kept" },
    ],
    [
      "takes the new text when it contains the existing one, whatever it adds",
      "I have two cats",
      "I have two cats and a dog named Rex",
      { kind: "replaced" },
    ],
    [
      "takes the new wording when only stop words, case or punctuation differ",
      "The deploy window is on the Tuesday at 10:00",
      "Deploy window: Tuesday, 10:00!",
      { kind: "replaced" },
    ],
    [
      "joins two wordings of one fact, so neither text is lost",
      "The user prefers dark mode",
      "User likes dark mode",
      { kind: "joined", content: "The user prefers dark mode. User likes dark mode" },
    ],
    [
      "joins two wordings of a cheer, trimmed",
      "Great game, Mel!",
      " Great match, Mel ",
      { kind: "joined", content: "Great game, Mel! Great match, Mel" },
    ],
    ["refuses texts that differ in a pronoun", "What about Kate?", "What about you Kate?", null],
    [
      "refuses distinct facts (dates)",
      "Support group on 7 May 2023",
      "Support group on 20 July 2023",
      null,
    ],
    ["refuses distinct facts (counts)", "I have two cats", "I have three cats", null],
    ["refuses a join longer than the content limit", `${long}alpha`, `${long}beta`, null],
  ])("%s", (_rule, existing, incoming, merged) => {
    expect(mergeText(existing, incoming)).toEqual(merged);
  });
});
