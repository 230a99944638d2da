import { describe, expect, it } from "vitest";
import {
  classify,
  dateTag,
  headerWords,
  memoriesFromMarkdown,
  SECTION_MAX,
  splitSections,
} from "../../worker/migrate/sections";

describe("splitSections (rules 1-2)", () => {
  it("splits on ## headers; each section is header plus body", () => {
    const md = "## Editor\nUses vim daily.\n## Deploys\nFridays only, never Mondays.";
    expect(splitSections(md)).toEqual([
      { header: "Editor", content: "## Editor\nUses vim daily." },
      { header: "Deploys", content: "## Deploys\nFridays only, never Mondays." },
    ]);
  });

  it("keeps a file without ## headers as one section, and text before the first header as its own", () => {
    expect(splitSections("Just one long paragraph of notes.")).toEqual([
      { header: null, content: "Just one long paragraph of notes." },
    ]);
    const sections = splitSections("# Title\nIntro line here\n## Part\nBody of the part");
    expect(sections.map((s) => s.header)).toEqual([null, "Part"]);
  });

  it("does not split on ### or on ## inside a code fence", () => {
    const md =
      "## A\ntext one here\n### Sub\nmore text\n```\n## not a header\n```\n## B\ntext two here";
    expect(splitSections(md).map((s) => s.header)).toEqual(["A", "B"]);
  });

  it("skips sections under 10 characters and truncates at 8,000", () => {
    const md = `## x\nhi\n## Long\n${"a".repeat(9000)}`;
    const sections = splitSections(md);
    expect(sections).toHaveLength(1);
    expect(sections[0]?.content.length).toBe(SECTION_MAX);
    expect(splitSections("## ab\n12")).toEqual([]); // "## ab\n12" is 8 characters
    expect(splitSections("## abcd\n12")).toHaveLength(1); // exactly 10
  });
});

describe("classify (rule 3)", () => {
  it.each([
    ["We decided to use Postgres", "decision", 0.9],
    ["Correction: the port is 5433, not 5432", "correction", 0.85],
    ["The user prefers dark mode", "preference", 0.8],
    ["Project roadmap for Q3", "project", 0.7],
    ["I noticed the cache misses spike at noon", "observation", 0.65],
    ["The office is on the third floor", "general", 0.6],
  ])("%s → %s %d", (text, type, importance) => {
    expect(classify(text)).toEqual({ memoryType: type, importance });
  });

  it("keeps importance within 0.6-0.9", () => {
    for (const t of ["decided", "prefer", "roadmap", "noticed", "plain"]) {
      const { importance } = classify(t);
      expect(importance).toBeGreaterThanOrEqual(0.6);
      expect(importance).toBeLessThanOrEqual(0.9);
    }
  });
});

describe("tags (rule 4)", () => {
  it("takes a valid date from the file name", () => {
    expect(dateTag("notes-2024-03-15.md")).toBe("date:2024-03-15");
    expect(dateTag("2024-02-30.md")).toBeNull();
    expect(dateTag("notes.md")).toBeNull();
  });

  it("uses header words, lower-case, without short and stop words", () => {
    expect(headerWords("The Deploy Process for API")).toEqual(["deploy", "process", "api"]);
    expect(headerWords(null)).toEqual([]);
  });

  it("combines migrated, the source tag, the date and header words, at most 10", () => {
    const [m] = memoriesFromMarkdown(
      "2025-01-02-log.md",
      "## Database Choice\nWe decided on Postgres.",
    );
    expect(m?.tags).toEqual([
      "migrated",
      "source:markdown",
      "date:2025-01-02",
      "database",
      "choice",
    ]);
    const many = memoriesFromMarkdown(
      "x.md",
      `## ${"alpha beta gamma delta epsilon zeta theta iota kappa lambda"}\nsome body text`,
    );
    expect(many[0]?.tags).toHaveLength(10);
  });
});
