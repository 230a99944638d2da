/**
 * worker/memories/updates/detect.ts: which newer fact supersedes an older one (issue #45). Pure: the
 * development set carries similarities measured with bge-small-en-v1.5, so no model runs here.
 */
import { describe, expect, it } from "vitest";
import {
  CORRECTION_MIN_SIMILARITY,
  factKey,
  judgeUpdate,
  UPDATE_CANDIDATES,
  UPDATE_MIN_SIMILARITY,
} from "../../worker/memories/updates/detect";
import { DEV_CONTROLS, DEV_UPDATES, type DevPair } from "./dev-set";

const judge = (p: DevPair) =>
  judgeUpdate(
    p.next,
    { content: p.previous, similarity: p.similarity },
    { correction: p.correction === true },
  );

/** At a similarity that passes the floor, so the rules decide. */
const at = (next: string, previous: string, similarity = 0.72, correction = false) =>
  judgeUpdate(next, { content: previous, similarity }, { correction });

/** Each pair's newer fact (first) does not replace the older one: `rule` refuses it (`why`). */
const refusedBy = (rule: string, why: string, pairs: Array<[string, string]>) =>
  it.each(pairs)(`%s does not replace %s (${why})`, (next, previous) => {
    expect(at(next, previous)).toMatchObject({ replaces: false, rule });
  });

describe("the development set", () => {
  it("has enough pairs of enough kinds", () => {
    expect(DEV_UPDATES.length).toBeGreaterThanOrEqual(80);
    expect(new Set(DEV_UPDATES.map((p) => p.kind)).size).toBeGreaterThanOrEqual(15);
    expect(DEV_CONTROLS.length).toBeGreaterThanOrEqual(60);
    for (const kind of ["other-person", "other-thing", "other-time", "unrelated"]) {
      expect(DEV_CONTROLS.filter((p) => p.kind === kind).length).toBeGreaterThanOrEqual(10);
    }
  });

  it("refuses every control", () => {
    const wrong = DEV_CONTROLS.filter((p) => judge(p).replaces).map(
      (p) => `${p.previous} -> ${p.next} (${judge(p).rule})`,
    );
    expect(wrong).toEqual([]);
  });

  it("detects at least 94% of the updates (measured: 201 of 211)", () => {
    const found = DEV_UPDATES.filter((p) => judge(p).replaces).length;
    expect(found / DEV_UPDATES.length).toBeGreaterThanOrEqual(0.94);
  });

  it("scores replacements above refusals, within 0-1, with a rule", () => {
    for (const p of [...DEV_UPDATES, ...DEV_CONTROLS]) {
      const v = judge(p);
      expect(v.score).toBeGreaterThanOrEqual(0);
      expect(v.score).toBeLessThanOrEqual(1);
      expect(v.rule).toMatch(/^[a-z-]+(:[a-z-]+)?$/);
      if (v.replaces) expect(v.score).toBeGreaterThanOrEqual(0.5);
      else expect(v.score).toBeLessThan(0.5);
    }
  });
});

describe("the rules", () => {
  it("exports its settings", () => {
    expect(UPDATE_MIN_SIMILARITY).toBeGreaterThan(0);
    expect(UPDATE_MIN_SIMILARITY).toBeLessThan(CORRECTION_MIN_SIMILARITY);
    expect(UPDATE_CANDIDATES).toBeGreaterThanOrEqual(1);
  });

  it("replaces the same attribute of the same subject", () => {
    const v = at("We finally moved to Denver last month.", "I live in Boston with my two cats.");
    expect(v).toMatchObject({ replaces: true, rule: "same-attribute:residence" });
  });

  it("refuses below the similarity floor", () => {
    const v = at("We moved to Denver.", "I live in Boston.", UPDATE_MIN_SIMILARITY - 0.01);
    expect(v).toMatchObject({ replaces: false, rule: "below-similarity" });
    expect(at("We moved to Denver.", "I live in Boston.", UPDATE_MIN_SIMILARITY).replaces).toBe(
      true,
    );
  });

  describe("subject", () => {
    refusedBy("other-person", "another person", [
      ["My brother lives in Denver.", "My sister lives in Boston."],
      ["I live in Denver.", "My sister lives in Boston."],
      ["My sister moved to Denver.", "I live in Boston."],
      ["The user's husband works at Apple.", "The user works at Google."],
      ["My phone number is 555-0199.", "Mia's number is 555-0101."],
      ["I work at Hulu.", "Tom works at Netflix."],
      ["I live in Rome.", "She lives in Paris."],
      ["My doctor is Dr. Shah.", "My partner's doctor is Dr. Lee."],
      ["My dog's name is Rex.", "My name is Sam."],
    ]);

    it("lets the same other person's fact be replaced", () => {
      expect(at("My sister moved to Denver.", "My sister lives in Boston.").replaces).toBe(true);
    });

    it("reads a role that is the user's attribute as the user's", () => {
      expect(at("I now report to Luis.", "The user's manager is Karen.").replaces).toBe(true);
      expect(at("Marcus is my boss now.", "My manager is Jenna.").replaces).toBe(true);
      expect(at("After the reorg my new supervisor is Priya.", "My boss is Dave.").replaces).toBe(
        true,
      );
    });

    it("does not count a person after a preposition", () => {
      expect(at("We moved in with my sister in Denver.", "I live in Boston.").replaces).toBe(true);
    });

    it("treats the user in the third person as I", () => {
      expect(at("I moved to Denver last month.", "The user lives in Boston.").replaces).toBe(true);
      expect(at("The user relocated to Austin.", "I live in Boston.").replaces).toBe(true);
      expect(at("The user's new email is b@y.com.", "My email is a@x.com.").replaces).toBe(true);
    });
  });

  describe("time", () => {
    refusedBy("past-scoped", "past-scoped", [
      ["I work at Shopify.", "In 2019 I worked at Accenture."],
      ["I live in Toronto.", "As a kid I lived in Nairobi."],
      ["I live in Sydney.", "In my twenties I lived in London."],
      ["I drive a Toyota RAV4.", "My first car was a Honda Civic."],
      ["We live in the suburbs.", "Before the kids we lived in a loft downtown."],
      ["My manager is Luis.", "Until 2020 my manager was Karen."],
      ["I commute by train.", "During the pandemic I worked from home."],
      ["Our standup is at 9:30.", "Yesterday's standup was at 10."],
      ["I weigh 78 kg.", "Two years ago I weighed 90 kg."],
      ["I live in Harlem.", "My old apartment was in Queens."],
      ["I live in Lisbon.", "I used to live in Madrid."],
      ["In 2019 I worked at Accenture.", "I work at Shopify."],
    ]);

    it("keeps two different periods apart", () => {
      const v = at("This Christmas we're hosting at our place.", "Next Christmas we host at home.");
      expect(v).toMatchObject({ replaces: false, rule: "other-time" });
      expect(
        at("This summer we're going to Portugal.", "Last summer we vacationed in Croatia").replaces,
      ).toBe(false);
    });

    it.each([
      ["We finally moved to Denver last month.", "I live in Boston."],
      ["I joined Stripe two weeks ago.", "I work at Shopify."],
      ["I've worked at Stripe since the reorg.", "I work at Shopify."],
      ["Since March I've lived in Denver.", "I live in Boston."],
      ["Got promoted to senior engineer this spring.", "I'm a junior data analyst."],
      ["The user relocated to Austin in January.", "The user lives in Brooklyn."],
      ["These days I live in Denver.", "I live in Boston."],
      ["In 2024 we moved to Denver.", "We live in Boston."],
      ["Went full carnivore last month.", "I follow a vegan diet."],
    ])("%s replaces %s (the time says when it changed)", (next, previous) => {
      expect(at(next, previous).replaces).toBe(true);
    });
  });

  describe("same thing", () => {
    it.each([
      ["My work desktop runs Windows 11.", "My laptop is a MacBook Air."],
      ["For cycling I ride a Trek.", "My car is a Mazda."],
      ["My checking account is at Wells Fargo.", "My credit card is with Chase."],
      ["My office email is sam@acme.com.", "My personal email is sam@gmail.com."],
      ["My home phone is 555-0200.", "My work phone number is 555-0100."],
      ["My dentist is Dr. Gomez.", "My doctor is Dr. Patel."],
      ["My favorite food is sushi.", "My favorite color is blue."],
      ["We live in Boston.", "Our summer house is in Maine."],
      ["I drink tea in the evening.", "I drink coffee in the morning."],
      ["The backend is written in Go.", "The frontend is written in React."],
    ])("%s does not replace %s (another thing)", (next, previous) => {
      expect(at(next, previous).rule).toMatch(/^other-thing/);
      expect(at(next, previous).replaces).toBe(false);
    });

    it("refuses two different attributes", () => {
      expect(at("I'm a product manager.", "I work at Google.")).toMatchObject({
        replaces: false,
        rule: "different-attribute",
      });
      expect(at("I love hiking.", "I love jazz.").replaces).toBe(false);
      expect(at("I'm vegetarian.", "I'm allergic to peanuts.").replaces).toBe(false);
      expect(at("I'm lactose intolerant.", "I'm vegetarian.").replaces).toBe(false);
    });

    it("needs the newer text to say a value of several was replaced", () => {
      expect(at("I have a cat named Luna.", "I have a dog named Max.")).toMatchObject({
        replaces: false,
        rule: "multi-valued:pet",
      });
      expect(at("We now have a rescue dog instead.", "Our only pet is a hamster.").replaces).toBe(
        true,
      );
      expect(at("I took up pottery.", "My hobby is knitting.").replaces).toBe(false);
      expect(at("I quit knitting and do pottery now.", "My hobby is knitting.").replaces).toBe(
        true,
      );
    });

    it("keeps a favourite apart from the attribute it mentions", () => {
      const v = at("The user's favorite restaurant is a vegan place.", "The user is vegan.");
      expect(v).toMatchObject({ replaces: false, rule: "different-attribute:favorite" });
      expect(at("These days I like purple best.", "My favorite color is green.").replaces).toBe(
        true,
      );
    });

    it("reads a first day at a new place as a start, not a past", () => {
      expect(at("Today was my first day at Figma.", "I work at Etsy.").replaces).toBe(true);
    });

    it("refuses an addition", () => {
      expect(at("We also have a cabin in Vermont.", "I live in Boston.")).toMatchObject({
        replaces: false,
        rule: "additive",
      });
      expect(at("I speak German too.", "I speak English and French.").replaces).toBe(false);
    });

    it("needs a change cue when one text names the attribute only weakly", () => {
      // "moved" alone is weak: meetings move too.
      expect(at("I moved the team meeting to Tuesday.", "I live in Chicago.").replaces).toBe(false);
      expect(at("Our team uses Snowflake.", "I'm on the data team.").replaces).toBe(false);
    });
  });

  describe("correction", () => {
    it("lets a correction that names no attribute replace what it is close to", () => {
      const previous = "The user's birthday is May 4.";
      const next = "Actually it's the 14th of June.";
      expect(at(next, previous, 0.7).replaces).toBe(false);
      expect(at(next, previous, 0.7, true)).toMatchObject({
        replaces: true,
        rule: "correction:similar",
      });
      expect(at(next, previous, CORRECTION_MIN_SIMILARITY - 0.01, true).replaces).toBe(false);
    });

    it("waives the change cue and the several-values rule", () => {
      expect(at("I have a cat.", "I have a dog.", 0.72, true).replaces).toBe(true);
    });

    it("still never crosses persons, times or things", () => {
      expect(
        at("My brother lives in Denver.", "My sister lives in Boston.", 0.9, true),
      ).toMatchObject({ replaces: false, rule: "other-person" });
      expect(at("I live in Toronto.", "As a kid I lived in Nairobi.", 0.9, true).replaces).toBe(
        false,
      );
      expect(at("My dentist is Dr. Gomez.", "My doctor is Dr. Patel.", 0.9, true).replaces).toBe(
        false,
      );
      expect(at("I'm vegetarian.", "I'm allergic to peanuts.", 0.9, true).replaces).toBe(false);
    });
  });

  describe("odd input", () => {
    it("refuses empty and wordless texts", () => {
      expect(at("", "I live in Boston.")).toMatchObject({ replaces: false, rule: "empty" });
      expect(at("I live in Boston.", "")).toMatchObject({ replaces: false, rule: "empty" });
      expect(at("   \n\t ", "...!?")).toMatchObject({ replaces: false });
      expect(at("🏠➡️🏔️", "🏙️", 0.9, true).replaces).toBe(false);
    });

    it("reads emoji, other scripts and odd punctuation without throwing", () => {
      expect(at("We finally moved to Denver 🏔️ last month!!", "I live in Boston 🏙️").replaces).toBe(
        true,
      );
      expect(at("Ich wohne jetzt in Berlin.", "私は東京に住んでいます。").replaces).toBe(false);
      const odd = ["\u0000\uffff", "\ud800", "a'''s’s'", "@@@.com", "ex-", "I'", "'s", "-1e9"];
      for (const a of odd) {
        for (const b of odd) expect(() => at(a, b, 0.9, true)).not.toThrow();
      }
    });

    it("refuses bad similarities and bad values instead of throwing", () => {
      expect(at("We moved to Denver.", "I live in Boston.", Number.NaN).rule).toBe(
        "invalid-similarity",
      );
      expect(
        at("We moved to Denver.", "I live in Boston.", Number.POSITIVE_INFINITY).replaces,
      ).toBe(false);
      const loose = judgeUpdate as unknown as (n: unknown, p: unknown, o?: unknown) => unknown;
      expect(loose(undefined, undefined)).toMatchObject({ replaces: false });
      expect(loose(42, { content: null, similarity: "0.9" })).toMatchObject({ replaces: false });
    });

    it("refuses texts of several facts, fast, up to 8 KB", () => {
      const long = `${"I live in Boston and I like it here. ".repeat(230)}`.slice(0, 8192);
      expect(long.length).toBe(8192);
      expect(at(long, "I live in Boston.")).toMatchObject({ replaces: false, rule: "too-long" });
      expect(at("We moved to Denver.", long)).toMatchObject({ replaces: false, rule: "too-long" });
      // The longest texts that are read at all.
      const previous = `I live in Boston ${"with my cats ".repeat(37)}`.slice(0, 400);
      const next = `We finally moved to Denver ${"🏔️ and love it ".repeat(70)}`.slice(0, 600);
      const start = performance.now();
      for (let i = 0; i < 200; i++) at(next, previous);
      at(long, long);
      const perPair = (performance.now() - start) / 201;
      expect(perPair).toBeLessThan(2);
    });

    it("is deterministic", () => {
      const p = DEV_UPDATES[0];
      if (!p) throw new Error("empty dev set");
      expect(judge(p)).toEqual(judge(p));
    });
  });
});

describe("factKey", () => {
  it.each([
    ["I live in a studio in Glasgow.", "residence"],
    ["We moved into a house in Edinburgh last week.", "residence"],
    ["The user reports to Alan.", "manager"],
    ["Sold the Ford; I have a Kia EV now.", "vehicle"],
  ])("%s → %s", (text, key) => {
    expect(factKey(text)).toBe(key);
  });

  it.each([
    ["another person's fact", "My sister lives in Boston."],
    ["a past-scoped fact", "In 2019 I worked at Accenture."],
    ["no attribute", "The quarterly numbers look strong."],
    ["empty", ""],
    ["too long", "I live in Rome. ".repeat(100)],
  ])("%s has none", (_name, text) => {
    expect(factKey(text)).toBeNull();
  });

  it("a pair found by its key is judged at any similarity, by the same rules", () => {
    const next = "We moved into a house in Edinburgh last week.";
    const previous = { content: "I live in a studio in Glasgow.", similarity: 0.05 };
    expect(judgeUpdate(next, previous).rule).toBe("below-similarity");
    expect(judgeUpdate(next, previous, { keyed: true })).toMatchObject({ replaces: true });
    const sister = { content: "My sister lives in Boston.", similarity: 0.05 };
    expect(judgeUpdate(next, sister, { keyed: true }).replaces).toBe(false);
  });
});

describe("what is no single fact", () => {
  const previous = { content: "I live in a studio in Glasgow.", similarity: 0.8 };
  it.each([
    ["a question", "Did we move to Edinburgh last week?", "question"],
    ["three sentences", "We moved to Edinburgh. The flat is big. Work is close.", "several-facts"],
    [
      "a transcript's turn",
      "[1:56 pm on 8 May, 2023] Caroline: We moved into a house in Edinburgh last week.",
      "transcript-turn",
    ],
  ])("%s neither replaces nor is replaced", (_name, text, rule) => {
    expect(judgeUpdate(text, previous)).toMatchObject({ replaces: false, rule });
    expect(judgeUpdate(previous.content, { content: text, similarity: 0.8 }).replaces).toBe(false);
    expect(factKey(text)).toBeNull();
  });

  it("what the user learned is about something else", () => {
    const next = "These days I follow a high-protein diet.";
    const learned = {
      content: "I learned that flamingos are pink because of their food.",
      similarity: 0.6,
    };
    expect(judgeUpdate(next, learned)).toMatchObject({
      replaces: false,
      rule: "other-thing:reported",
    });
    expect(factKey(learned.content)).toBeNull();
  });

  it("a title's dot ends no sentence, and a heading is no speaker", () => {
    const next = "Correction: my dentist is Dr. Levine in St. Louis now.";
    const old = { content: "My dentist is Dr. Okafor.", similarity: 0.8 };
    expect(judgeUpdate(next, old).rule).not.toBe("several-facts");
    expect(judgeUpdate(next, old).rule).not.toBe("transcript-turn");
  });
});
