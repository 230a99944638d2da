/**
 * The built-in language-model provider ("rules-v1"): no model, no network, deterministic.
 * The same input always gives the same facts, in the same order.
 *
 * extractFacts, per message:
 *  1. Whose words. Only people's messages are read: role "user" or "human" is the user; any
 *     other role that is not a machine's (e.g. "alice", "customer") is a named speaker.
 *     Messages of "assistant", "ai", "bot", "model", "system", "developer", "tool" and
 *     "function" are skipped: they hold suggestions, explanations and paraphrases of the user,
 *     and keeping them would store the assistant's guesses as facts. (A model-backed provider
 *     may use them as context; this one cannot tell a guess from a confirmation.)
 *  2. Sentences, by sentences.ts (abbreviations, bullets, headings, wrapped lines).
 *  3. Each sentence is cleaned: markdown emphasis removed, curly apostrophes straightened,
 *     leading discourse markers and greetings dropped ("ok, ", "well, ", "also ", "by the
 *     way, ", "Hi Claude, "…), and "remember that …" / "note that …" / "keep in mind that …"
 *     reduced to what follows (an explicit request to remember: +0.1 importance, at most 0.95).
 *  4. It is dropped when it is
 *     - a question (ends with "?", or opens like one: "Is the API down", "What is the plan"),
 *     - a request or task for the assistant ("can you …", "please …", "help me …",
 *       "write …", "let's …"),
 *     - a greeting ("Good morning, Claude!"), or thanks and filler made only of words like ok,
 *       thanks, sure, great, yes, bye ("Thanks so much!", "Sounds good"),
 *     - shorter than 3 words (a contraction counts as two: "I'm Sam" is kept) or 6 characters,
 *     - a reaction to another turn ("That sounds great", "It works now", "Looks good to me")
 *       or a short sentence ending in it / this / that ("I love it"), unless it carries a
 *       number, a date or a proper name,
 *     - none of: a first-person word (I, my, me, we, our…), a number, a month or weekday, a
 *       proper name (a capitalised word not starting the sentence), a verb of state or
 *       possession ("X is Y", has, uses, works, lives…) or a type keyword below.
 *  5. First person singular is rewritten for the speaker: "I prefer dark mode" → "The user
 *     prefers dark mode", "I'm" → "the user is", "I've" → "has", "I'd" → "would", "I'll" →
 *     "will", "I don't" → "doesn't", "my" → "the user's", "me" → "the user", "myself" →
 *     "themselves"; once the speaker is named in a sentence, later "my" / "me" become "their" /
 *     "them" ("The user would like their reports in PDF"). A named speaker's name replaces
 *     "the user". The verb after "I" takes the third person (prefer → prefers, try → tries,
 *     watch → watches, need → needs) unless it is a modal or past tense; adverbs in between
 *     are skipped ("I really like" → "really likes"). A leading "Actually," is dropped after
 *     it has marked the fact a correction. Plural first person ("we", "our") is kept as it
 *     is: who "we" are is not known.
 *  6. Type and importance: migrate's `classify` keywords first (decision 0.9, correction
 *     0.85, preference 0.8, project 0.7, observation 0.65, else general 0.6); a general
 *     sentence is then a correction when it opened with "no," / "nope," / "not quite" (0.85),
 *     a preference when it says love, enjoy, hate, rather, "fan of", "can't stand" (0.8), and
 *     a project fact when it names a repo, codebase, deploy, launch, feature, bug, API,
 *     database, stack or version (0.7).
 *  7. Facts end without a full stop, start with a capital, are at most 8,192 characters
 *     (longer sentences are cut at a word boundary), and repeat only once per call (same
 *     words, ignoring case and punctuation; the first is kept).
 * tokens: countTokens (lib/tokens.ts) of every message's content, the text "read".
 *
 * synthesize: the memories' sentences in order, each kept once (same words, ignoring case
 * and punctuation), a sentence dropped when another kept one contains all of it word for
 * word ("The user likes tea" inside "The user likes tea with milk"), each ending in
 * punctuation, joined with spaces, cut to 8,192 characters at a sentence (or word) boundary.
 */

import type { ChatMessage, Fact, LlmProvider } from "../language-model";
import { countTokens } from "../lib/tokens";
import { LIMITS } from "../memories/fields";
import { classify } from "../migrate/sections";
import { cutAtWord, splitSentences, wordKey } from "./sentences";
import { toThirdPerson } from "./third-person";

export const RULES_PROVIDER_NAME = "rules-v1";

export class RulesProvider implements LlmProvider {
  readonly name = RULES_PROVIDER_NAME;

  async extractFacts(messages: ChatMessage[]): Promise<{ facts: Fact[]; tokens: number }> {
    const facts: Fact[] = [];
    const seen = new Set<string>();
    let tokens = 0;
    for (const message of messages) {
      tokens += countTokens(message.content);
      const speaker = speakerOf(message.role);
      if (speaker === null) continue;
      for (const sentence of splitSentences(message.content)) {
        const fact = factFrom(sentence, speaker);
        if (!fact) continue;
        const key = wordKey(fact.content);
        if (seen.has(key)) continue;
        seen.add(key);
        facts.push(fact);
      }
    }
    return { facts, tokens };
  }

  async synthesize(memories: string[]): Promise<{ content: string; tokens: number }> {
    const tokens = memories.reduce((sum, m) => sum + countTokens(m), 0);
    const sentences: Array<{ text: string; key: string }> = [];
    const keys = new Set<string>();
    for (const memory of memories) {
      for (const sentence of splitSentences(memory)) {
        const key = wordKey(sentence);
        if (key === "" || keys.has(key)) continue;
        keys.add(key);
        sentences.push({ text: sentence, key });
      }
    }
    const kept = sentences.filter(
      (s) =>
        !sentences.some((o) => o !== s && o.key.length > s.key.length && contains(o.key, s.key)),
    );
    let content = "";
    for (const { text } of kept) {
      const sentence = /[.!?…]["'”’)\]]*$/.test(text) ? text : `${text}.`;
      const next = content === "" ? sentence : `${content} ${sentence}`;
      if (next.length > LIMITS.content) {
        if (content === "") content = cutAtWord(sentence, LIMITS.content);
        break;
      }
      content = next;
    }
    return { content, tokens };
  }
}

const MACHINE_ROLES = new Set([
  "assistant",
  "ai",
  "bot",
  "model",
  "system",
  "developer",
  "tool",
  "function",
]);
const USER_ROLES = new Set(["user", "human"]);

/** Whose words a message holds, as the subject to write them with; null when not a person's. */
function speakerOf(role: string): string | null {
  const r = role.trim();
  const lower = r.toLowerCase();
  if (MACHINE_ROLES.has(lower)) return null;
  if (USER_ROLES.has(lower) || r === "") return "the user";
  return r.charAt(0).toUpperCase() + r.slice(1);
}

function contains(haystack: string, needle: string): boolean {
  return ` ${haystack} `.includes(` ${needle} `);
}

const LEADING_FILLER =
  /^(?:(?:hi|hello|hey|dear)\s+\p{Lu}\p{L}*[,!:]|ok(?:ay)?|oh|ah|well|so|also|and|but|anyway|btw|by the way|fyi|just so you know|for the record|hmm+|um+|uh+|yes|yeah|yep|sure|right|alright|cool|great|thanks|thank you|hi|hello|hey)(?=[\s,:;!.—–]|$)[\s,:;!.—–]*/iu;
const CORRECTION_OPENER = /^(?:no|nope|not quite|wrong)\b[\s,:;!.—–-]+/i;
const REMEMBER =
  /^(?:please\s+)?(?:remember|note|keep in mind|don'?t forget|do not forget)(?:\s+that)?[\s,:]+/i;
const REQUEST =
  /^(?:please|pls|can you|could you|would you|will you|can we|could we|shall we|should we|let'?s|let me know|help me|tell me|show me|give me|remind me|write|draft|explain|summari[sz]e|generate|translate|list|search|look up|check|find me)\b/i;
const FILLER_WORDS = new Set(
  (
    "ok okay k thanks thank thx ty you so much very a lot sure cool great good sounds got it yes " +
    "yeah yep yup no nope lol haha hah perfect awesome nice bye goodbye see later please np " +
    "welcome alright right fine wow oh ah hmm um uh indeed exactly agreed hi hello hey there " +
    "morning afternoon evening night to me that's that is works for makes sense true ah oh all " +
    "the best cheers will do noted understood"
  ).split(" "),
);
/** A question typed without its question mark: inverted auxiliary, or wh-word + auxiliary. */
const QUESTION =
  /^(?:(?:is|are|am|was|were|do|does|did|can|could|will|would|should|shall|has|have|may|might)\s+(?:i|you|we|they|he|she|it|there|this|that|the|my|your|our|a|an)|(?:what|why|how|where|when|who|which)(?:'s|\s+(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have)))\b/i;
const GREETING =
  /^(?:hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening|night|day))(?:\s+(?:there|all|everyone|team))?(?:[\s,]+\p{Lu}[\p{L}-]*)?[\s,!.]*$/iu;
/** A short sentence about "it" or "that": its object is in another turn. */
const VAGUE_OBJECT = /\b(?:it|this|that|them|those|these)[\s.!]*$/i;
const REACTION =
  /^(?:that|this|it|these|those)(?:'s|’s|\s+is|\s+was|\s+sounds|\s+looks|\s+seems|\s+makes|\s+works|\s+worked|\s+would|\s+will|\s+should|\s+could|\s+might)\b|^(?:sounds|looks|seems|makes sense)\b/i;
const FIRST_PERSON =
  /\b(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|my|me|mine|myself|we|our|ours|us)\b/i;
const NUMBER = /\p{N}/u;
const CALENDAR =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|march|april|june|july|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|tonight|weekend|week|month|year)\b/i;
const STATE_VERB =
  /\b(?:is|are|was|were|has|have|had|uses|use|used|works|work|worked|lives|live|lived|owns|own|needs|need|wants|want|runs|run|called|named|born|based)\b/i;

const EXTRA_RULES: Array<{ memoryType: Fact["memory_type"]; importance: number; words: RegExp }> = [
  {
    memoryType: "preference",
    importance: 0.8,
    words: /\b(?:loves?|enjoys?|hates?|rather|fan of|can'?t stand|cannot stand)\b/i,
  },
  {
    memoryType: "project",
    importance: 0.7,
    words:
      /\b(?:repo|repository|codebase|deploy(?:s|ed|ment)?|launch(?:es|ed)?|features?|bugs?|api|database|stack|version|v\d+(?:\.\d+)*)\b/i,
  },
];

/** One sentence to a fact, or null when it is not one (rules 3-7 of the header). */
function factFrom(raw: string, speaker: string): Fact | null {
  let sentence = raw
    .replace(/\*\*|__|~~/g, "")
    .replace(/[‘’]/g, "'")
    .trim();
  let corrective = false;
  let remembered = false;
  for (let i = 0; i < 4; i++) {
    const before = sentence;
    if (CORRECTION_OPENER.test(sentence) && sentence.replace(CORRECTION_OPENER, "").trim()) {
      corrective = true;
      sentence = sentence.replace(CORRECTION_OPENER, "");
    }
    const rest = sentence.replace(LEADING_FILLER, "");
    if (rest !== sentence && rest.trim() !== "") sentence = rest;
    if (REMEMBER.test(sentence) && sentence.replace(REMEMBER, "").trim()) {
      remembered = true;
      sentence = sentence.replace(REMEMBER, "");
    }
    sentence = sentence.trim();
    if (sentence === before) break;
  }

  if (/\?["'”’)\]]*$/.test(sentence) || QUESTION.test(sentence)) return null;
  if (REQUEST.test(sentence)) return null;
  const words = sentence.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  if (words.every((w) => FILLER_WORDS.has(w))) return null;
  const wordCount = words.reduce((n, w) => n + (/\p{L}'\p{L}/u.test(w) ? 2 : 1), 0);
  if (wordCount < 3 || sentence.length < 6) return null;
  if (GREETING.test(sentence)) return null;

  const concrete = NUMBER.test(sentence) || CALENDAR.test(sentence) || hasProperName(sentence);
  if (REACTION.test(sentence) && !concrete) return null;
  if (VAGUE_OBJECT.test(sentence) && wordCount <= 5 && !concrete) return null;
  const classified = classify(sentence);
  const signal =
    concrete ||
    FIRST_PERSON.test(sentence) ||
    STATE_VERB.test(sentence) ||
    classified.memoryType !== "general" ||
    EXTRA_RULES.some((r) => r.words.test(sentence));
  if (!signal) return null;

  let { memoryType, importance } = classified;
  if (memoryType === "general") {
    const extra = corrective
      ? { memoryType: "correction" as const, importance: 0.85 }
      : EXTRA_RULES.find((r) => r.words.test(sentence));
    if (extra) ({ memoryType, importance } = extra);
  }
  if (remembered) importance = Math.min(0.95, importance + 0.1);

  const content = cutAtWord(
    capitalise(
      toThirdPerson(sentence.replace(/^actually[\s,]+/i, ""), speaker).replace(/[\s.;:,!]+$/u, ""),
    ),
    LIMITS.content,
  );
  return { content, memory_type: memoryType, importance: Math.round(importance * 100) / 100 };
}

/** A capitalised word after the first word (not "I" or its contractions). */
function hasProperName(sentence: string): boolean {
  const words = sentence.match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? [];
  return words.slice(1).some((w) => /^\p{Lu}/u.test(w) && !/^I(?:['’]\p{L}+)?$/u.test(w));
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
