/**
 * The rule-based language-model provider (worker/llm/rules.ts): the facts it extracts from a
 * conversation and how it merges memories. Pure functions, deterministic outputs.
 */
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../worker/language-model";
import { countTokens } from "../../worker/lib/tokens";
import { RulesProvider } from "../../worker/llm/rules";

const rules = new RulesProvider();

const SAMPLE: ChatMessage[] = [
  {
    role: "user",
    content:
      "Hi there! I'm Sam, a backend engineer at Acme Corp. I prefer dark mode in every editor.",
  },
  {
    role: "assistant",
    content:
      "Nice to meet you, Sam! I'll remember that you prefer dark mode. What are you working on?",
  },
  {
    role: "user",
    content:
      "We decided to migrate the billing service to Postgres 16 by March 15.\n" +
      "My manager is Dr. Lee, e.g. she approves all schema changes.\n\n" +
      "- I usually deploy on Tuesdays\n- The staging API runs on port 8080",
  },
  { role: "user", content: "Can you draft the migration plan? Thanks!" },
  { role: "assistant", content: "Sure. Here is a draft plan..." },
  { role: "user", content: "ok" },
  {
    role: "user",
    content:
      "No, the deadline is actually March 22, not March 15. Remember that I never work on Fridays. That sounds great.",
  },
  {
    role: "user",
    content: "I really like TypeScript and I hate YAML configs. My daughter Mia was born in 2019.",
  },
  { role: "user", content: "Sounds good, thanks so much!" },
];

const one = async (content: string, role = "user") =>
  (await rules.extractFacts([{ role, content }])).facts.map((f) => f.content);

describe("RulesProvider.extractFacts", () => {
  it("extracts the facts of a sample conversation, with types and importance", async () => {
    const { facts, tokens } = await rules.extractFacts(SAMPLE);
    expect(facts).toEqual([
      {
        content: "The user is Sam, a backend engineer at Acme Corp",
        memory_type: "general",
        importance: 0.6,
      },
      {
        content: "The user prefers dark mode in every editor",
        memory_type: "preference",
        importance: 0.8,
      },
      {
        content: "We decided to migrate the billing service to Postgres 16 by March 15",
        memory_type: "decision",
        importance: 0.9,
      },
      {
        content: "The user's manager is Dr. Lee, e.g. she approves all schema changes",
        memory_type: "general",
        importance: 0.6,
      },
      { content: "The user usually deploys on Tuesdays", memory_type: "project", importance: 0.7 },
      { content: "The staging API runs on port 8080", memory_type: "project", importance: 0.7 },
      {
        content: "The deadline is actually March 22, not March 15",
        memory_type: "correction",
        importance: 0.85,
      },
      // "Remember that …": +0.1 on preference's 0.8.
      { content: "The user never works on Fridays", memory_type: "preference", importance: 0.9 },
      {
        content: "The user really likes TypeScript and the user hates YAML configs",
        memory_type: "preference",
        importance: 0.8,
      },
      {
        content: "The user's daughter Mia was born in 2019",
        memory_type: "general",
        importance: 0.6,
      },
    ]);
    // Tokens: every message read, the assistant's included.
    expect(tokens).toBe(SAMPLE.reduce((sum, m) => sum + countTokens(m.content), 0));
    expect(rules.name).toBe("rules-v1");
  });

  it("is deterministic and keeps a repeated fact once", async () => {
    const first = await rules.extractFacts(SAMPLE);
    expect(await rules.extractFacts(SAMPLE)).toEqual(first);
    const twice = await rules.extractFacts([
      { role: "user", content: "I live in Porto." },
      { role: "user", content: "i live in porto!!" },
    ]);
    expect(twice.facts.map((f) => f.content)).toEqual(["The user lives in Porto"]);
  });

  it("rewrites the first person for the user", async () => {
    const cases: Array<[string, string]> = [
      ["I prefer dark mode", "The user prefers dark mode"],
      ["I'm allergic to peanuts.", "The user is allergic to peanuts"],
      ["I’ve lived in Lisbon since 2020.", "The user has lived in Lisbon since 2020"],
      ["I don't eat meat anymore.", "The user doesn't eat meat anymore"],
      ["i watch a lot of anime", "The user watches a lot of anime"],
      ["I try to run every morning.", "The user tries to run every morning"],
      ["I'd like my reports in PDF.", "The user would like their reports in PDF"],
      ["I'll be in Tokyo next week.", "The user will be in Tokyo next week"],
      ["My name is Sam.", "The user's name is Sam"],
      ["I'm Sam.", "The user is Sam"],
      ["I moved to Berlin last year.", "The user moved to Berlin last year"],
      ["I taught myself Rust.", "The user taught themselves Rust"],
      ["I really really love jazz", "The user really really loves jazz"],
      ["I need to finish the report by Friday.", "The user needs to finish the report by Friday"],
      ["Alice and I went to Rome.", "Alice and the user went to Rome"],
      ["Just so you know, I'm vegetarian.", "The user is vegetarian"],
      [
        "Hi Claude, I work at Initech as a data analyst.",
        "The user works at Initech as a data analyst",
      ],
      ["We use pnpm in the monorepo.", "We use pnpm in the monorepo"],
    ];
    for (const [input, expected] of cases) expect(await one(input), input).toEqual([expected]);
  });

  it("names other human speakers and skips machine roles", async () => {
    const { facts } = await rules.extractFacts([
      { role: "alice", content: "I manage the Berlin office. My team has 12 people." },
      { role: "assistant", content: "The user lives in Paris." },
      { role: "system", content: "You are helpful and the user is Bob." },
      { role: "tool", content: "Weather in Paris is 21 degrees." },
    ]);
    expect(facts.map((f) => f.content)).toEqual([
      "Alice manages the Berlin office",
      "Alice's team has 12 people",
    ]);
  });

  it("drops greetings, questions, requests, filler, reactions and fragments", async () => {
    for (const input of [
      "Hello!",
      "Good morning, Claude!",
      "Thanks!",
      "ok",
      "Sure thing",
      "Sounds good, thanks so much!",
      "What time is it?",
      "Is the API down",
      "Please send me the file.",
      "Can you summarize this thread for me",
      "That sounds great.",
      "That makes sense",
      "It works now.",
      "Looks good to me.",
      "I love it.",
      "Yes please",
      "",
    ]) {
      expect(await one(input), input).toEqual([]);
    }
    // A question mark needs no wh-word; a wh-word alone does not make a question.
    expect(await one("Is the API down?")).toEqual([]);
    expect(await one("When I was young I lived in Paris.")).toEqual([
      "When the user was young the user lived in Paris",
    ]);
  });

  it("assigns type and importance by keyword", async () => {
    const typed = async (input: string) => {
      const { facts } = await rules.extractFacts([{ role: "user", content: input }]);
      return facts.map((f) => [f.memory_type, f.importance]);
    };
    expect(await typed("We decided to use Postgres for everything.")).toEqual([["decision", 0.9]]);
    expect(await typed("No, my sister's name is Anna, not Anne.")).toEqual([["correction", 0.85]]);
    expect(await typed("Actually, I switched to Neovim.")).toEqual([["correction", 0.85]]);
    expect(await typed("I always use tabs.")).toEqual([["preference", 0.8]]);
    expect(await typed("I hate YAML configuration files.")).toEqual([["preference", 0.8]]);
    expect(await typed("The release is v2.3.1.")).toEqual([["project", 0.7]]);
    expect(await typed("I noticed the build is slower on Mondays.")).toEqual([
      ["observation", 0.65],
    ]);
    expect(await typed("The office is closed on Mondays.")).toEqual([["general", 0.6]]);
    expect(await typed("Remember that the API key rotates every 90 days.")).toEqual([
      ["project", 0.8],
    ]);
    expect(await one("Actually, I switched to Neovim.")).toEqual(["The user switched to Neovim"]);
  });

  it("reads bullets, headings and wrapped lines as sentences", async () => {
    const text =
      "## Setup\n" +
      "* I use a MacBook Pro for work\n" +
      "* My editor is VS Code with the vim\n" +
      "  keybindings enabled\n" +
      "1. The repo lives on GitLab.\n" +
      "2) Deploys happen every Thursday.";
    expect(await one(text)).toEqual([
      "The user uses a MacBook Pro for work",
      "The user's editor is VS Code with the vim keybindings enabled",
      "The repo lives on GitLab",
      "Deploys happen every Thursday",
    ]);
  });

  it("returns nothing for an empty conversation, and cuts a huge sentence to 8,192 characters", async () => {
    expect(await rules.extractFacts([])).toEqual({ facts: [], tokens: 0 });
    const [fact] = await one(`My notes say ${"lorem ipsum ".repeat(2000)}`);
    expect(fact?.length).toBeLessThanOrEqual(8192);
    expect(fact?.startsWith("The user's notes say lorem")).toBe(true);
  });
});

describe("RulesProvider.synthesize", () => {
  it("merges memories: each sentence once, in order, contained sentences dropped", async () => {
    const { content, tokens } = await rules.synthesize([
      "The user likes tea. The user lives in Berlin.",
      "The user likes tea with milk",
      "the user lives in Berlin!",
      "The user works at Acme.",
    ]);
    expect(content).toBe(
      "The user lives in Berlin. The user likes tea with milk. The user works at Acme.",
    );
    expect(tokens).toBeGreaterThan(0);
    expect(await rules.synthesize(["Same text.", "Same text."])).toMatchObject({
      content: "Same text.",
    });
  });

  it("caps the result at 8,192 characters on a sentence boundary", async () => {
    const memories = Array.from({ length: 300 }, (_, i) => `Memory number ${i} says something.`);
    const { content } = await rules.synthesize(memories);
    expect(content.length).toBeLessThanOrEqual(8192);
    expect(content.endsWith("says something.")).toBe(true);
    expect(content.startsWith("Memory number 0 says something. Memory number 1")).toBe(true);
  });
});
