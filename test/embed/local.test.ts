/** The local lexical embedder (worker/embed/local.ts): deterministic 384-dimensional unit vectors. */
import { describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS } from "../../worker/embed/embedder";
import { cosine } from "../../worker/embed/index";
import { LocalEmbedder, stemWord } from "../../worker/embed/local";
import { countTokens } from "../../worker/lib/tokens";
import { norm } from "../providers";

describe("LocalEmbedder", () => {
  const local = new LocalEmbedder();
  const one = async (text: string) => {
    const { vectors } = await local.embed([text]);
    const [v] = vectors;
    if (!v) throw new Error("no vector");
    return v;
  };

  // 29 words.
  const base =
    "The quarterly planning meeting with the design team has moved to Thursday afternoon " +
    "because Maria is travelling to the Berlin office for the product launch on Wednesday next week";

  it("is deterministic, 384-dimensional and unit length", async () => {
    const [a, b] = (await local.embed([base, base])).vectors;
    const c = await one(base);
    expect(a).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(a).toEqual(b);
    expect(a).toEqual(c);
    expect(norm(c)).toBeCloseTo(1, 10);
    expect(local.model).toBe("local-lexical-v1");
  });

  // Measured figures (local-lexical-v1), which the assertions bracket:
  //   identical text                                   1.000
  //   one content word of 29 changed (Thursday→Friday) 0.938 (other words: 0.936–0.955)
  //   one stop word changed ("the design"→"a design")  0.9996
  //   clauses reordered (same words)                   0.9999
  //   every word reversed                              0.933 (only the word pairs differ)
  //   upper-cased with "!!!" appended                  1.000
  //   unrelated sentence                               −0.015
  //   "Deploying the new services" / "deployed a new service"  0.904 (stems + trigrams)
  //   "car" / "automobile"                             0.000 (lexical: no notion of synonyms)
  // So with the store's 0.95 dedup threshold, a one-word edit of a ~30-word memory usually
  // stays a separate memory, while case, punctuation and stop-word edits merge.
  it("scores shared words high and unrelated text near zero", async () => {
    const a = await one(base);
    expect(cosine(a, await one(base))).toBeCloseTo(1, 10);

    const oneWord = cosine(a, await one(base.replace("Thursday", "Friday")));
    expect(oneWord).toBeGreaterThan(0.9);
    expect(oneWord).toBeLessThan(0.95);

    expect(cosine(a, await one(base.replace("the design", "a design")))).toBeGreaterThan(0.99);

    const reordered =
      "Because Maria is travelling to the Berlin office for the product launch on Wednesday " +
      "next week, the quarterly planning meeting with the design team has moved to Thursday afternoon";
    expect(cosine(a, await one(reordered))).toBeGreaterThan(0.99);
    const reversed = cosine(a, await one(base.split(" ").reverse().join(" ")));
    expect(reversed).toBeGreaterThan(0.9);
    expect(reversed).toBeLessThan(0.97);

    expect(cosine(a, await one(`${base.toUpperCase()}!!!`))).toBeCloseTo(1, 10);

    const unrelated =
      "My favourite recipe for banana bread uses brown sugar, chopped walnuts and a pinch of " +
      "cinnamon, baked for fifty minutes until golden.";
    expect(Math.abs(cosine(a, await one(unrelated)))).toBeLessThan(0.15);

    const morph = cosine(
      await one("Deploying the new services"),
      await one("deployed a new service"),
    );
    expect(morph).toBeGreaterThan(0.8);
    expect(cosine(await one("car"), await one("automobile"))).toBeLessThan(0.2);
  });

  it("gives empty and word-less text a fixed unit vector, and stop words a vector of their own", async () => {
    const empty = await one("");
    expect(empty).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(norm(empty)).toBeCloseTo(1, 10);
    expect(empty.every((x) => Number.isFinite(x))).toBe(true);
    expect(await one("   \n\t ")).toEqual(empty);
    expect(await one("?!…")).toEqual(empty);

    const stops = await one("it is what it is");
    expect(norm(stops)).toBeCloseTo(1, 10);
    expect(stops).not.toEqual(empty);
    expect(cosine(stops, await one("what is it"))).toBeGreaterThan(0.5);
  });

  it("treats composed and decomposed accents, and other scripts, as words", async () => {
    expect(await one("café crème")).toEqual(await one("cafe\u0301 cre\u0300me"));
    const jp = await one("東京の会議は木曜日です");
    expect(norm(jp)).toBeCloseTo(1, 10);
    expect(cosine(jp, await one(""))).toBeLessThan(0.5);
  });

  it("stems common inflections conservatively", () => {
    const cases: Record<string, string> = {
      running: "run",
      runs: "run",
      meetings: "meet",
      meeting: "meet",
      studies: "study",
      studied: "study",
      boxes: "box",
      classes: "class",
      quickly: "quick",
      stopped: "stop",
      falling: "fall",
      things: "thing",
      glass: "glass",
      bus: "bus",
      this: "this",
      used: "used",
    };
    for (const [word, stem] of Object.entries(cases)) expect(stemWord(word), word).toBe(stem);
  });

  it("counts tokens with countTokens", async () => {
    const texts = [base, "", "hello world"];
    const { vectors, tokens } = await local.embed(texts);
    expect(vectors).toHaveLength(3);
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBe(texts.reduce((s, t) => s + countTokens(t), 0));
    expect(await local.embed([])).toEqual({ vectors: [], tokens: 0 });
  });

  it("embeds a long text", async () => {
    const long = `${base} `.repeat(60).slice(0, 8192);
    const v = await one(long);
    expect(norm(v)).toBeCloseTo(1, 10);
    expect(cosine(v, await one(base))).toBeGreaterThan(0.9);
  });
});
