/**
 * Whether a newer memory gives a new value for the same thing as an older one, so it
 * `supersedes` it (issue #45, "current facts win"): "I live in Boston" then "We finally moved
 * to Denver last month". No language model: rules over the two texts, plus the cosine
 * similarity of their embeddings (bge-small-en-v1.5, CLS pooling, normalised).
 *
 * A wrong replacement hides a true fact, so precision comes first: every rule below can only
 * refuse, and a pair is a replacement only when nothing refuses it and both texts are clearly
 * about the same attribute. The rules, in order:
 *
 * 1. Similarity at least UPDATE_MIN_SIMILARITY. On bge-small the similarity barely separates
 *    updates from look-alikes (test/updates/dev-set.ts: 181 updates 0.52-0.88, median 0.70;
 *    150 controls 0.52-0.87, median 0.71), because a fact and its replacement share few words
 *    and the look-alikes share most. So it is only a floor that drops unrelated memories, and a small
 *    bonus in the score; the rules decide.
 * 2. Size: an older text over 400 characters or a newer one over 600 is several facts (or a
 *    document); superseding it would hide the others. This also bounds the work per pair.
 * 3. Subject: who the fact is about. Kin and roles ("my sister", "the user's husband"), named
 *    people ("Mia's number", "Tom works at ...") and sentence-initial "he"/"she" are other
 *    subjects when they stand where a subject stands (not after a preposition: "I live with
 *    my sister" is about the user). Roles that are themselves an attribute of the user ("my
 *    manager is Karen", "my partner is Ben", "my new supervisor") do not count. "The user"
 *    is "I". The two texts must have the same other subjects (usually none): "My sister lives
 *    in Boston" never replaces "My brother lives in Denver", nor "I live in Rome".
 * 4. Time: a fact scoped to a past or bounded period is not the current value, and does not
 *    replace or get replaced. Life periods ("as a kid", "in college", "in my twenties",
 *    "during", "until 2020", "my first car", "last year's") always scope. Past times ("in
 *    2019", "last summer", "two years ago", "used to", "my old apartment") scope unless the
 *    same text reports a change ("joined Stripe two weeks ago", "moved to Denver last
 *    month"), where they say when the change happened. "Since ..." never scopes. Two texts
 *    naming different periods ("last summer" vs "this summer", 2015 vs 2018) are about two
 *    times unless both report changes.
 * 5. Addition: "also", "another", "as well", "on the side" in the newer text add a value.
 * 6. Attribute: both texts must be about one attribute family (residence, employer, job
 *    title, manager, diet, deadline, phone, email, school, plan, doctor, vehicle, relationship,
 *    favourite, team, project, hobby, gym, bank, commute, pet, languages, device, tools,
 *    drink, time zone, name, pay, meetings, travel, sleep, insurance, ...: lexicon.ts), by
 *    words and short phrases written from general knowledge. Words common in other senses
 *    ("moved", "plan", "team") are weak: a pair that shares a family only through a weak word
 *    in one text also needs a change cue in the newer one ("now", "switched", "instead",
 *    "since", "finally", ...), or a weak word in both a change cue and similarity >= 0.7.
 *    A word that is both the weak hint and a change ("I moved the meeting") is not both. A
 *    favourite is an attribute of its own: "my favourite restaurant is a vegan place" says
 *    nothing of the user's diet.
 * 7. Same thing: within a family, head nouns of different kinds mean different things
 *    ("laptop" vs "desktop", "credit card" vs "checking", "dentist" vs "doctor", "favourite
 *    colour" vs "favourite food"), and so do different qualifiers before the head ("work
 *    phone" vs "home phone", "personal email" vs "office email", "summer house" vs where one
 *    lives) and different times of day ("coffee in the morning", "tea in the evening").
 * 8. Several values: hobbies, pets, languages, allergies and medication are often held at
 *    once, so a newer one replaces only when the newer text says so ("instead", "quit",
 *    "gave up", "no longer", "now").
 * 9. Correction (memory_type "correction"): the caller says the newer memory corrects
 *    something, so rules 6's strength and 8 are waived, and a newer text that names no
 *    attribute ("Actually it's the 14th") may still replace at similarity >=
 *    CORRECTION_MIN_SIMILARITY. Rules 1-5 and 7 still hold: a correction never crosses
 *    persons, times or things.
 *
 * Pure, synchronous, no I/O; one pass over each text with map look-ups (at most 1,000
 * characters are read in all): about 15 µs for a pair of short facts, about 0.1 ms for the
 * longest pair read (Node, one core). It never throws: odd input is refused.
 */
import type { UpdateVerdict } from "../../language-model";
import { distinguishingWords } from "../dedup-rule";
import {
  ADDITIVE_CUES,
  ANIMALS,
  CHANGE_CUES,
  CHANGE_EVENTS,
  FAMILIES,
  HARD_SCOPES,
  LANGUAGES,
  PERIODS,
  PERSON_VERBS,
  PERSONS,
  QUALIFIERS,
  REPLACEMENT_CUES,
  ROLE_ATTRIBUTES,
  SOFT_SCOPES,
  TIMES_OF_DAY,
} from "./lexicon";

/** The lowest cosine similarity at which a stored memory is a candidate at all (the store's probe asks the database for neighbours at or above it). */
export const UPDATE_MIN_SIMILARITY = 0.5;
/**
 * How many nearest current memories per new memory are judged. More than one or two: a fact
 * and its replacement share few words, so their similarity (0.52-0.88) is often below that of
 * unrelated look-alikes, and the older fact may be the third or fourth neighbour.
 */
export const UPDATE_CANDIDATES = 5;
/** With `correction`, a newer text that names no attribute may replace from this similarity. */
export const CORRECTION_MIN_SIMILARITY = 0.6;

export interface UpdateCandidate {
  /** The older memory's text. */
  content: string;
  /** Cosine similarity of the two texts' embeddings (0-1). */
  similarity: number;
}

export type { UpdateVerdict };

/** Texts longer than these hold several facts: never superseded, never superseding. */
const MAX_PREVIOUS_CHARS = 400;
const MAX_NEXT_CHARS = 600;
/** From this similarity, two texts that differ in no value are one fact said twice. */
const RESTATEMENT_SIMILARITY = 0.85;
const MONTH =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const DATE_RES = [
  new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+(${MONTH})\\b`, "giu"),
  new RegExp(`\\b(${MONTH})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, "giu"),
  /\b(\d{4})-(\d{2})-(\d{2})\b/gu,
];

/** Words by which a newer text says that a date moved (not that another day's event happened). */
const DATE_MOVED =
  /\b(?:push|postpon|reschedul|moved|delay|extend|shift|slipp|instead|chang|now\b|actually|correct|brought forward)/iu;

/**
 * The first three words both texts open with, when they are the same and not the user
 * ("I", "my", "we", "our", "the user" …): a named thing both facts are about.
 */
function sameOpening(a: string, b: string): string | undefined {
  const head = (t: string) =>
    (
      t
        .slice(0, 200)
        .toLowerCase()
        .match(/[\p{L}\p{N}']+/gu) ?? []
    )
      .slice(0, 3)
      .join(" ");
  const ha = head(a);
  if (ha.split(" ").length < 3 || ha !== head(b)) return undefined;
  return /^(?:i|i'm|i've|my|me|we|we're|our|us|the user|user)\b/.test(ha) ? undefined : ha;
}

/** The user in any person: "I", "my", "we", "our", "the user"… */
const USER_WORDS =
  /(?:^|[^\p{L}'’])(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|me|my|mine|myself|we|we're|we’re|we've|we’ve|our|ours|us|the user|the user's|the user’s)(?=$|[^\p{L}'’])/iu;

/**
 * Something the user learned, read or thinks ("I learned that …", "we read about …"): the fact
 * is the clause that follows, about something else, not an attribute of the user.
 */
const REPORTED =
  /(?:^|[^\p{L}])(?:i|we|the user)\s+(?:just\s+|recently\s+)?(?:learned|learnt|read|heard|saw|noticed|found out|discovered|think|thought|believe|know|knew|remember|realized|realised|wonder|wondered|guess)\s+(?:that|how|why|about|what)(?=$|[^\p{L}])/iu;

/** Whether a text is about the user (its first person, or "the user"). */
function aboutUser(text: string): boolean {
  return USER_WORDS.test(text.length > 1000 ? text.slice(0, 1000) : text);
}

/**
 * A transcript's turn, as a conversation is stored message by message: a timestamp in
 * brackets, then a speaker's name and a colon ("[1:56 pm on 8 May, 2023] Caroline: …").
 */
const TRANSCRIPT_TURN =
  /^\s*\[[^\]]{1,80}\]\s*[\p{L}][\p{L}'’.-]*(?:\s[\p{L}][\p{L}'’.-]*){0,2}\s*:\s/u;

/** A sentence's end: not the dot of a title or a common abbreviation ("Dr. Levine"). */
const SENTENCE_END =
  /(?<!\b(?:dr|st|mr|mrs|ms|jr|sr|prof|mt|no|vs|etc|inc|ltd|co|ave|rd|e\.g|i\.e))[.!;]+(?:\s+|$)/iu;

/** More sentences than this is several things said, not one fact. */
const MAX_SENTENCES = 2;

/**
 * Why a text is no single fact to replace or be replaced, or undefined: a question asks
 * rather than states; three sentences or more (a note) say several things, and replacing the
 * whole for one of them would hide the others; a transcript's turn is a message, whose "I" is
 * its speaker's and whose words are as often chatter as fact (ingest and extract turn a
 * conversation into facts, which are judged).
 */
function notAFact(text: string): string | undefined {
  const s = text.length > 1000 ? text.slice(0, 1000) : text;
  if (TRANSCRIPT_TURN.test(s)) return "transcript-turn";
  if (s.includes("?")) return "question";
  const sentences = s.split(SENTENCE_END).filter((part) => /\p{L}{2}/u.test(part));
  return sentences.length > MAX_SENTENCES ? "several-facts" : undefined;
}

/** The years a text names (1900-2099). */
function years(text: string): Set<string> {
  return new Set(
    (text.length > 1000 ? text.slice(0, 1000) : text).match(/\b(?:19|20)\d{2}\b/g) ?? [],
  );
}

/** The calendar days a text names ("7 May", "May 7th", "2024-05-07"), as month-day keys. */
function calendarDates(text: string): Set<string> {
  const out = new Set<string>();
  const s = text.length > 1000 ? text.slice(0, 1000) : text;
  for (const m of s.matchAll(DATE_RES[0] as RegExp))
    out.add(`${m[2]?.slice(0, 3).toLowerCase()}-${Number(m[1])}`);
  for (const m of s.matchAll(DATE_RES[1] as RegExp))
    out.add(`${m[1]?.slice(0, 3).toLowerCase()}-${Number(m[2])}`);
  for (const m of s.matchAll(DATE_RES[2] as RegExp)) out.add(`${m[1]}-${m[2]}-${m[3]}`);
  return out;
}

/** Weak signals on both sides need a change cue and this similarity. */
const WEAK_PAIR_SIMILARITY = 0.7;

/**
 * A fact's key: the attribute family its words name most strongly (a strong word, the first
 * family of the lexicon on a tie), when the fact is about the user, now: null for another
 * person's fact, a past-scoped one, a long text, or one that names no family strongly. The
 * store keeps it (memories.fact_key), and a new fact is judged against the current memories
 * of its key as well as against its nearest ones: the key finds an old wording that shares no
 * word with the new one, which a lexical embedder cannot.
 */
export function factKey(text: string): string | null {
  try {
    if (typeof text !== "string" || text.length > MAX_NEXT_CHARS) return null;
    if (notAFact(text) || !aboutUser(text) || REPORTED.test(text)) return null;
    const a = analyze(text);
    if (a.others.size > 0 || a.hard || (a.soft && !a.event)) return null;
    let best: string | null = null;
    for (const def of FAMILIES) {
      const hit = a.families.get(def.name);
      if (hit && hit.strength >= 2) {
        best = def.name;
        break;
      }
    }
    return best;
  } catch {
    return null;
  }
}

/**
 * Whether `next` (the newer fact) gives a new value for the same thing as `previous` (older), so `next` supersedes it.
 * `correction`: the newer memory was stored with memory_type "correction": the caller says it corrects something, so a looser bar applies (still never across persons or times).
 */
export function judgeUpdate(
  next: string,
  previous: UpdateCandidate,
  options?: JudgeOptions,
): UpdateVerdict {
  try {
    return judge(next, previous, options?.correction === true, options?.keyed === true);
  } catch {
    return refuse("error");
  }
}

function refuse(rule: string, score = 0): UpdateVerdict {
  return { replaces: false, score: round(score), rule };
}

function round(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
}

export interface JudgeOptions {
  correction?: boolean;
  /**
   * The older memory was found by its fact key (factKey: the same attribute family as the
   * newer text's), not by its similarity: the similarity floor does not apply. With a lexical
   * embedder, two wordings of one fact share no words and score near 0.
   */
  keyed?: boolean;
}

function judge(
  next: string,
  previous: UpdateCandidate,
  correction: boolean,
  keyed: boolean,
): UpdateVerdict {
  const prev = previous?.content;
  const sim = previous?.similarity;
  if (typeof next !== "string" || typeof prev !== "string") return refuse("invalid-input");
  if (typeof sim !== "number" || !Number.isFinite(sim)) return refuse("invalid-similarity");
  // By key alone, only facts about the user: an impersonal text's family word ("the team
  // channel", "the coffee shop") names what it mentions, not an attribute of anyone.
  if (sim < UPDATE_MIN_SIMILARITY && !(keyed && aboutUser(prev) && aboutUser(next))) {
    return refuse("below-similarity");
  }
  if (prev.length > MAX_PREVIOUS_CHARS || next.length > MAX_NEXT_CHARS) return refuse("too-long");
  // A question, several sentences, or a transcript's turn is no single fact (notAFact).
  const turn = notAFact(prev) ?? notAFact(next);
  if (turn) return refuse(turn);
  // "I learned that flamingos are pink because of their food" is about flamingos.
  if (REPORTED.test(prev) || REPORTED.test(next)) return refuse("other-thing:reported");
  const a = analyze(prev);
  const b = analyze(next);
  if (a.words === 0 || b.words === 0) return refuse("empty");

  if (!sameSet(a.others, b.others)) return refuse("other-person");
  if (a.hard || b.hard) return refuse("past-scoped");
  if ((a.soft && !a.event) || (b.soft && !b.event)) return refuse("past-scoped");
  if (a.periods.size > 0 && b.periods.size > 0 && disjoint(a.periods, b.periods)) {
    if (!(a.event && b.event)) return refuse("other-time");
  }
  if (b.additive) return refuse("additive");
  // Two facts that open on the same named thing ("The Zephyr project holds its meetings on
  // Tuesdays" / "The Zephyr project keeps its documents in a drive") are two attributes of it,
  // both true, unless the newer one says something changed.
  const opening = sameOpening(prev, next);
  if (opening && !b.change) return refuse("other-thing:same-subject");
  // Two dated events ("went to the group on 7 May", "… on 20 July") are two facts; a date
  // that moved says so ("pushed to the 17th", "instead"), or is a correction.
  if (!correction && !DATE_MOVED.test(next)) {
    const da = calendarDates(prev);
    const db = calendarDates(next);
    if (da.size > 0 && db.size > 0 && disjoint(da, db)) return refuse("other-time:date");
    // Likewise two years ("our 2022 trip" / "our 2024 trip").
    const ya = years(prev);
    const yb = years(next);
    if (ya.size > 0 && yb.size > 0 && disjoint(ya, yb)) return refuse("other-time:year");
  }
  // Close texts that differ in no value (no number, date, name or negation: dedup-rule.ts)
  // say the same thing again: a restatement, not a new value. Both stay, as before.
  if (sim >= RESTATEMENT_SIMILARITY && distinguishingWords(prev, next, true).length === 0) {
    return refuse("restatement");
  }
  if (a.times.size > 0 && b.times.size > 0 && disjoint(a.times, b.times)) {
    return refuse("other-thing:time-of-day");
  }

  for (const def of EXCLUSIVE) {
    if (a.families.has(def.name) !== b.families.has(def.name)) {
      return refuse(`different-attribute:${def.name}`);
    }
  }

  // Families both texts are about, and whether they name the same thing within it.
  let best: { name: string; min: number; max: number; multi: boolean; change: boolean } | undefined;
  let conflict: string | undefined;
  for (const [name, fa] of a.families) {
    const fb = b.families.get(name);
    if (!fb) continue;
    const def = FAMILY_BY_NAME.get(name);
    if (!def) continue;
    if (headsConflict(def, fa, fb)) {
      conflict ??= name;
      continue;
    }
    const min = Math.min(fa.strength, fb.strength);
    const max = Math.max(fa.strength, fb.strength);
    const multi = def.multi === true;
    // "I moved the meeting": "moved" is the only hint of residence, so it is not also the cue.
    const change = b.changes - (fb.strength === 1 ? fb.cueSignals : 0) > 0;
    if (
      !best ||
      min > best.min ||
      (min === best.min && max > best.max) ||
      (min === best.min && max === best.max && best.multi && !multi)
    ) {
      best = { name, min, max, multi, change };
    }
  }

  const simBonus = Math.min(0.2, Math.max(0, (sim - 0.55) * 0.6));
  if (!best) {
    if (conflict) return refuse(`other-thing:${conflict}`);
    // A correction that names no attribute ("Actually it's the 14th of June") corrects what
    // it is closest to, when it is close enough.
    if (
      correction &&
      (a.families.size === 0 || b.families.size === 0) &&
      sim >= CORRECTION_MIN_SIMILARITY
    ) {
      return { replaces: true, score: round(0.5 + simBonus), rule: "correction:similar" };
    }
    return refuse("different-attribute", simBonus);
  }

  if (best.multi && !b.replace && !correction) {
    return refuse(`multi-valued:${best.name}`, 0.3 + simBonus);
  }
  const strongBoth = best.min === 2;
  const ok =
    correction ||
    strongBoth ||
    (best.max === 2 && best.change) ||
    (best.change && sim >= WEAK_PAIR_SIMILARITY);
  const score = 0.5 + (strongBoth ? 0.15 : 0) + (best.change ? 0.1 : 0) + simBonus;
  if (!ok) return refuse(`weak-attribute:${best.name}`, score - 0.25);
  return {
    replaces: true,
    score: round(Math.min(0.99, score + (correction ? 0.05 : 0))),
    rule: `${correction ? "correction" : "same-attribute"}:${best.name}`,
  };
}

// ---------------------------------------------------------------------------------------------
// The lexicon, compiled once.

type FamilyDef = (typeof FAMILIES)[number];

type Tag =
  | { t: "fam"; f: string; s: number }
  | { t: "head"; f: string; dim: string; g: string }
  | { t: "qual"; q: string }
  | { t: "time"; v: string }
  | { t: "cue"; c: CueKind };

type CueKind = "change" | "event" | "replace" | "additive" | "hard" | "soft";

const LEXICON = new Map<string, Tag[]>();
let MAX_PHRASE = 1;

function list(s: string): string[] {
  return s
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

/** Every proper prefix of a phrase ("got the" of "got the keys"): longer reads stop early. */
const PREFIXES = new Set<string>();

function add(phrase: string, tag: Tag): void {
  const parts = phrase.toLowerCase().split(/\s+/);
  const key = parts.join(" ");
  MAX_PHRASE = Math.max(MAX_PHRASE, parts.length);
  for (let n = 1; n < parts.length; n++) PREFIXES.add(parts.slice(0, n).join(" "));
  const tags = LEXICON.get(key);
  if (tags) tags.push(tag);
  else LEXICON.set(key, [tag]);
}

const FAMILY_BY_NAME = new Map<string, FamilyDef>();
const EXCLUSIVE = FAMILIES.filter((f) => f.exclusive === true);
for (const def of FAMILIES) {
  FAMILY_BY_NAME.set(def.name, def);
  for (const w of list(def.strong)) add(w, { t: "fam", f: def.name, s: 2 });
  for (const w of list(def.weak ?? "")) add(w, { t: "fam", f: def.name, s: 1 });
  for (const [dim, groups] of Object.entries(def.heads ?? {})) {
    for (const [g, words] of Object.entries(groups)) {
      for (const raw of list(words)) {
        // "~word": a weak signal of the family; "^word": only names the kind, no signal.
        const mark = raw[0] === "~" || raw[0] === "^" ? raw[0] : "";
        const w = mark ? raw.slice(1) : raw;
        if (mark !== "^") add(w, { t: "fam", f: def.name, s: mark === "~" ? 1 : 2 });
        add(w, { t: "head", f: def.name, dim, g });
      }
    }
  }
}
for (const w of list(QUALIFIERS)) add(w, { t: "qual", q: w });
for (const w of list(TIMES_OF_DAY)) add(w, { t: "time", v: w.replace(/s$/, "") });
for (const w of list(CHANGE_CUES)) add(w, { t: "cue", c: "change" });
for (const w of list(CHANGE_EVENTS)) add(w, { t: "cue", c: "event" });
for (const w of list(REPLACEMENT_CUES)) add(w, { t: "cue", c: "replace" });
for (const w of list(ADDITIVE_CUES)) add(w, { t: "cue", c: "additive" });
for (const w of list(HARD_SCOPES)) add(w, { t: "cue", c: "hard" });
for (const w of list(SOFT_SCOPES)) add(w, { t: "cue", c: "soft" });

const PERIOD_SET = new Set(list(PERIODS));
const LANGUAGE_SET = new Set(list(LANGUAGES));
const PERSON_SET = new Set(list(PERSONS));
const ROLE_SET = new Set(list(ROLE_ATTRIBUTES));
const ANIMAL_SET = new Set(list(ANIMALS));
const PERSON_VERB_SET = new Set(list(PERSON_VERBS));
/** Families where a qualifier before the head ("work phone") names another thing. */
const QUALIFIED = new Set(FAMILIES.filter((f) => f.heads && "q" in f.heads).map((f) => f.name)).add(
  "device",
);
for (const f of ["vehicle", "bank", "insurance", "internet"]) QUALIFIED.add(f);

/** One spelling per person word. */
const PERSON_CANON: Record<string, string> = {
  neighbour: "neighbor",
  mum: "mom",
  mommy: "mom",
  mama: "mom",
  daddy: "dad",
  papa: "dad",
  fiancee: "fiance",
  fiancé: "fiance",
  fiancée: "fiance",
  adviser: "advisor",
  flatmate: "roommate",
  housemate: "roommate",
  coworker: "colleague",
  "co-worker": "colleague",
  children: "child",
  kid: "child",
  kids: "child",
  folks: "parent",
  landlady: "landlord",
};

/** The set of the space-separated words of `words`. */
const wordSet = (words: string) => new Set(words.split(" "));

const DETERMINERS = wordSet("my our his her their your the a an this that");
const POSSESSIVE_DETERMINERS = wordSet("my our his her their your");
/** Words after which a noun phrase starts a clause: "... and my sister lives ...". */
const OPENERS = wordSet(
  "and but so while whereas also then now currently actually because although though plus meanwhile today recently finally still both or nowadays",
);
const COPULAS = wordSet("is was are were");
const SKIP_AFTER_COPULA = wordSet("now currently actually still officially");
const ROLE_CHANGE_VERBS = wordSet("changed left quit retired switched");
const ATTRIBUTE_MODIFIERS = wordSet("new current former previous old");
const TITLES = wordSet("dr mr mrs ms prof miss");
const SELF_WORDS = wordSet(
  "i me my mine myself we us our ours ourselves i'm i've i'd i'll we're we've we'd we'll user",
);
/** Nouns that a named possessor's fact is about a person: "Mia's number", "Tom's wife". */
const PERSONAL_POSSESSIONS = wordSet(
  "number phone cell email address birthday house apartment place flat home wife husband kids kid son daughter dog cat job name car favorite favourite sister brother mom dad mother father partner boyfriend girlfriend new manager boss school office diet",
);
const CONTRACTIONS = wordSet("it that he she there what who here let where how");
const MONTHS_AND_DAYS = wordSet(
  "january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday",
);
const YEAR_SOFT_BEFORE = wordSet("in during of around circa from by");
const YEAR_IGNORE_BEFORE = wordSet("since");
const UNTIL_SCOPE_AFTER = wordSet("last recently i we he she they");
const FORMER_WORDS = wordSet("old previous former prior ex last");
const ADDITIVE_END = wordSet("too");
const FIRST_STARTS = wordSet("day week month shift");
const GROUP_NOUNS = wordSet(
  "team squad department org organization company firm startup group division",
);
const NOT_VERBS = wordSet(
  "is was are were has have had 's at in on of for with and or but to from as now currently",
);
const WENT_PLACES = wordSet(
  "to on for back out there home away through with into by over up down abroad",
);

// ---------------------------------------------------------------------------------------------
// Reading one text.

interface Token {
  /** Lower case, "'s" removed. */
  w: string;
  /** Starts with an upper-case letter as written. */
  cap: boolean;
  /** Ended with "'s" or "s'" (a possessive). */
  poss: boolean;
  /** 0: a word; 1: a comma; 2: the end of a sentence or clause. */
  kind: 0 | 1 | 2;
}

interface FamilyHit {
  strength: number;
  /** Weak signals that are change cues too ("moved"): they cannot also be the change. */
  cueSignals: number;
  /** Kinds of thing named, by dimension (filled in after the pass from Analysis.heads). */
  heads: Map<string, Set<string>>;
}

interface Analysis {
  words: number;
  families: Map<string, FamilyHit>;
  others: Set<string>;
  hard: boolean;
  soft: boolean;
  event: boolean;
  change: boolean;
  /** How many change cues were read. */
  changes: number;
  replace: boolean;
  additive: boolean;
  periods: Set<string>;
  times: Set<string>;
}

const TOKEN_RE =
  /([\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:[-'’.@+:/&][\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*)(['’]s?)?|(,)|([.!?;:\n\r()"“”—–…|•-]+)/gu;
const UPPER_RE = /^\p{Lu}/u;
const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/;
const NUMERIC_RE = /^[0-9][0-9\-./]*$/;
const YEAR_RE = /^(19|20)[0-9]{2}$/;

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  // Texts over the limits are refused before; this only bounds the work if that changes.
  const s = text.length > 1000 ? text.slice(0, 1000) : text;
  for (const m of s.matchAll(TOKEN_RE)) {
    if (m[1] !== undefined) {
      let w = m[1].toLowerCase().replaceAll("’", "'");
      let poss = m[2] !== undefined;
      if (w.endsWith("'s")) {
        w = w.slice(0, -2);
        poss = !CONTRACTIONS.has(w);
      } else if (poss && CONTRACTIONS.has(w)) {
        poss = false;
      }
      if (w.length === 0) continue;
      out.push({ w, cap: UPPER_RE.test(m[1]), poss, kind: 0 });
    } else if (m[3] !== undefined) {
      out.push({ w: ",", cap: false, poss: false, kind: 1 });
    } else {
      out.push({ w: ".", cap: false, poss: false, kind: 2 });
    }
  }
  return out;
}

function analyze(text: string): Analysis {
  const toks = tokenize(text);
  const r: Analysis = {
    words: 0,
    families: new Map(),
    others: new Set(),
    hard: false,
    soft: false,
    event: false,
    change: false,
    changes: 0,
    replace: false,
    additive: false,
    periods: new Set(),
    times: new Set(),
  };
  const word = (i: number): string | undefined => {
    const t = toks[i];
    return t && t.kind === 0 ? t.w : undefined;
  };
  const addFamily = (f: string, s: number): FamilyHit => {
    let hit = r.families.get(f);
    if (!hit) {
      hit = { strength: s, cueSignals: 0, heads: new Map() };
      r.families.set(f, hit);
    } else if (s > hit.strength) hit.strength = s;
    return hit;
  };
  // Heads are kept apart and joined to families at the end: a head-only word ("purple")
  // names a kind within a family only if another word says the text is about that family.
  const heads = new Map<string, Map<string, Set<string>>>();
  const addHead = (f: string, dim: string, g: string): void => {
    let byDim = heads.get(f);
    if (!byDim) {
      byDim = new Map();
      heads.set(f, byDim);
    }
    let set = byDim.get(dim);
    if (!set) {
      set = new Set();
      byDim.set(dim, set);
    }
    set.add(g);
  };
  let langName = false;

  // Phrases, longest first, never across a comma or a sentence end.
  let pendingQual: { q: string; at: number } | undefined;
  let i = 0;
  while (i < toks.length) {
    const t = toks[i];
    if (t?.kind !== 0) {
      i++;
      continue;
    }
    r.words++;
    if (LANGUAGE_SET.has(t.w)) langName = true;
    // The longest phrase here that names a family gives the families; cues count from every
    // phrase here ("moved" in "moved over" is still a change, "married" in "got married" is
    // still about relationships).
    let matched = 0;
    let tags: Tag[] | undefined;
    let key = "";
    let joined = "";
    for (let n = 1; n <= MAX_PHRASE; n++) {
      const w = word(i + n - 1);
      if (w === undefined) break;
      joined = n === 1 ? w : `${joined} ${w}`;
      // A plural of a listed word ("companies", "plans") counts as the word.
      const found = LEXICON.get(joined) ?? (n === 1 && w.length > 3 ? singular(joined) : undefined);
      if (found) {
        let named = false;
        for (const tag of found) {
          if (tag.t === "cue") applyCue(r, tag.c);
          else named = true;
        }
        if (named) {
          tags = found;
          matched = n;
          key = joined;
        }
      }
      if (!PREFIXES.has(joined)) break;
    }
    if (!tags) {
      pendingQual = undefined;
      i++;
      continue;
    }
    // "a product manager", "as a manager": a job title, not who manages the user.
    const titleUse = key === "manager" && (isArticle(word(i - 1)) || isArticle(word(i - 2)));
    // "Our team uses Snowflake": the team is what the fact is about, not the user's team.
    const groupSubject =
      GROUP_NOUNS.has(key) && !t.poss && atSubjectPosition(toks, i) && verbFollows(toks, i + 1);
    const famsHere: string[] = [];
    const isChange = tags.some((tag) => tag.t === "cue" && tag.c === "change");
    let qualHere: string | undefined;
    for (const tag of tags) {
      if (tag.t === "fam") {
        if (titleUse && tag.f === "manager") {
          addFamily("job-title", 1);
          continue;
        }
        if (groupSubject) continue;
        const hit = addFamily(tag.f, tag.s);
        if (isChange && tag.s === 1) hit.cueSignals++;
        famsHere.push(tag.f);
      } else if (tag.t === "head") {
        if (titleUse && tag.f === "manager") continue;
        addHead(tag.f, tag.dim, tag.g);
      } else if (tag.t === "qual") {
        qualHere = tag.q;
      } else if (tag.t === "time") {
        r.times.add(tag.v);
      }
    }
    if (pendingQual && pendingQual.at === i) {
      for (const f of famsHere) if (QUALIFIED.has(f)) addHead(f, "q", pendingQual.q);
    }
    pendingQual = qualHere ? { q: qualHere, at: i + matched } : undefined;
    for (let k = 1; k < matched; k++) r.words++;
    i += matched;
  }

  // Token patterns: addresses, numbers, years, periods, subjects.
  let digits = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (!t) continue;
    if (t.kind === 0 && NUMERIC_RE.test(t.w)) {
      digits += countDigits(t.w);
      if (digits >= 7) addFamily("phone", 2);
    } else digits = 0;
    if (t.kind !== 0) continue;
    const w = t.w;
    const prev = word(k - 1);
    const prev2 = word(k - 2);
    const nextW = word(k + 1);

    if (w.includes("@") && EMAIL_RE.test(w)) addFamily("email", 2);

    if (YEAR_RE.test(w)) {
      if (prev === "until" || prev === "till") {
        r.hard = true;
        r.periods.add(w);
      } else if (prev !== undefined && YEAR_IGNORE_BEFORE.has(prev)) {
        // "since 2015": when a state began, not a period.
      } else if (
        (prev !== undefined && YEAR_SOFT_BEFORE.has(prev)) ||
        (prev2 !== undefined && YEAR_SOFT_BEFORE.has(prev2) && prev !== "since")
      ) {
        r.soft = true;
        r.periods.add(w);
      }
    }
    if (w === "ago") r.soft = true;
    // "went vegan", "went full carnivore" report a change; "went to Spain" a trip.
    if (w === "went" && nextW !== undefined && !WENT_PLACES.has(nextW)) r.event = true;
    if ((w === "until" || w === "till") && nextW !== undefined) {
      if (UNTIL_SCOPE_AFTER.has(nextW)) r.hard = true;
    }
    if (PERIOD_SET.has(w) && prev !== undefined) {
      if (prev === "last" || prev === "past" || prev === "previous") {
        if (t.poss) r.hard = true;
        else r.soft = true;
        r.periods.add(`last:${w}`);
      } else if (prev === "this" || prev === "next" || prev === "coming") {
        r.periods.add(`${prev === "coming" ? "next" : prev}:${w}`);
      }
    }
    if (w === "yesterday" && t.poss) r.hard = true;
    // "my first car" is a past one; "my first day at Figma" is the start of the current one.
    if (w === "first" && isPossessor(toks, k - 1)) {
      if (nextW !== undefined && FIRST_STARTS.has(nextW)) r.event = true;
      else r.hard = true;
    }
    if (FORMER_WORDS.has(w) && isPossessor(toks, k - 1)) {
      if (!(w === "last" && nextW !== undefined && PERIOD_SET.has(nextW))) r.soft = true;
    }
    if (w.startsWith("ex-")) r.soft = true;
    if (ADDITIVE_END.has(w) && toks[k + 1]?.kind !== 0) r.additive = true;
    if ((w === "moved" || w === "relocated") && (nextW === "to" || nextW === "into")) {
      const dest = toks[k + 2];
      if (dest && dest.kind === 0 && dest.cap && !MONTHS_AND_DAYS.has(dest.w)) {
        addFamily("residence", 2);
      }
    }

    subject(toks, k, r.others);
  }

  // Learning words are about a language only next to a language's name ("learning Spanish",
  // not "learning guitar"); with one, both language families are certain.
  if (!langName) r.families.delete("language-learning");
  else {
    for (const f of ["language-learning", "language-spoken"]) {
      const hit = r.families.get(f);
      if (hit) hit.strength = 2;
    }
  }
  for (const [f, hit] of r.families) {
    const byDim = heads.get(f);
    if (byDim) hit.heads = byDim;
  }
  return r;
}

function singular(w: string): Tag[] | undefined {
  if (w.endsWith("ies")) return LEXICON.get(`${w.slice(0, -3)}y`);
  if (w.endsWith("es")) return LEXICON.get(w.slice(0, -2)) ?? LEXICON.get(w.slice(0, -1));
  if (w.endsWith("s") && !w.endsWith("ss")) return LEXICON.get(w.slice(0, -1));
  return undefined;
}

/** A word after a noun that reads as its verb ("uses", "moved"), not a copula or preposition. */
function verbFollows(toks: Token[], k: number): boolean {
  const t = toks[k];
  return t !== undefined && t.kind === 0 && !NOT_VERBS.has(t.w) && !t.cap && !/^[0-9]/.test(t.w);
}

function applyCue(r: Analysis, c: CueKind): void {
  if (c === "change") {
    r.change = true;
    r.changes++;
  } else if (c === "event") r.event = true;
  else if (c === "replace") r.replace = true;
  else if (c === "additive") r.additive = true;
  else if (c === "hard") r.hard = true;
  else r.soft = true;
}

function countDigits(w: string): number {
  let n = 0;
  for (const ch of w) if (ch >= "0" && ch <= "9") n++;
  return n;
}

function isArticle(w: string | undefined): boolean {
  return w === "a" || w === "an" || w === "as";
}

/** The token at k is "my", "our", ... or a possessive noun ("the user's"). */
function isPossessor(toks: Token[], k: number): boolean {
  const t = toks[k];
  return t !== undefined && t.kind === 0 && (POSSESSIVE_DETERMINERS.has(t.w) || t.poss);
}

/**
 * Where the noun phrase ending at k starts: back over its determiner ("my", "the user's",
 * "a") and at most two modifiers.
 */
function phraseStart(toks: Token[], k: number): number {
  for (let j = k - 1; j >= Math.max(0, k - 4); j--) {
    const t = toks[j];
    if (t?.kind !== 0) break;
    if (DETERMINERS.has(t.w) || t.poss) {
      // "the user's sister": the phrase starts at "the".
      const before = toks[j - 1];
      if (t.poss && before?.kind === 0 && DETERMINERS.has(before.w)) return j - 1;
      return j;
    }
  }
  return k;
}

/** Whether the noun phrase ending at k stands where a clause's subject stands. */
function atSubjectPosition(toks: Token[], k: number): boolean {
  const start = phraseStart(toks, k);
  const before = toks[start - 1];
  if (before?.kind !== 0) return true;
  return OPENERS.has(before.w);
}

/** Adds to `others` who the token at k makes the fact about, when it is not the user. */
function subject(toks: Token[], k: number, others: Set<string>): void {
  const t = toks[k];
  if (t?.kind !== 0) return;
  const w = t.w;
  if (SELF_WORDS.has(w)) return;
  const next = toks[k + 1];
  const nextW = next?.kind === 0 ? next.w : undefined;

  let person: string | undefined;
  if (PERSON_SET.has(w)) person = w;
  else if (w.endsWith("s") && PERSON_SET.has(w.slice(0, -1))) person = w.slice(0, -1);
  if (person !== undefined) {
    if (!atSubjectPosition(toks, k)) return;
    if (!t.poss && ROLE_SET.has(person) && roleAsAttribute(toks, k)) return;
    others.add(PERSON_CANON[person] ?? person);
    return;
  }
  if (ANIMAL_SET.has(w) && t.poss) {
    if (atSubjectPosition(toks, k)) others.add(w);
    return;
  }
  if (w === "he" || w === "she") {
    if (atSubjectPosition(toks, k)) others.add(w);
    return;
  }
  // A name: capitalised, and either a possessor of something personal ("Mia's number") or
  // followed by a verb of a person ("Tom works at Netflix").
  if (!t.cap || w === "the") return;
  if (t.poss && nextW !== undefined && PERSONAL_POSSESSIONS.has(nextW)) {
    if (atSubjectPosition(toks, k)) others.add(`name:${w}`);
    return;
  }
  if (!t.poss && nextW !== undefined && PERSON_VERB_SET.has(nextW)) {
    if (atSubjectPosition(toks, k) && !LEXICON.has(w)) others.add(`name:${w}`);
  }
}

/**
 * "my manager is Karen", "my new supervisor", "my manager changed": the role is an attribute
 * of the user, not a person the fact is about.
 */
function roleAsAttribute(toks: Token[], k: number): boolean {
  const start = phraseStart(toks, k);
  for (let j = start; j < k; j++) {
    const m = toks[j];
    if (m && ATTRIBUTE_MODIFIERS.has(m.w)) return true;
  }
  let j = k + 1;
  const n = toks[j];
  if (n?.kind !== 0) return true;
  if (ROLE_CHANGE_VERBS.has(n.w)) return true;
  if (!COPULAS.has(n.w)) return false;
  j++;
  while (toks[j]?.kind === 0 && SKIP_AFTER_COPULA.has(toks[j]?.w ?? "")) j++;
  const v = toks[j];
  return v !== undefined && v.kind === 0 && (v.cap || TITLES.has(v.w));
}

function headsConflict(def: FamilyDef, a: FamilyHit, b: FamilyHit): boolean {
  if (QUALIFIED.has(def.name)) {
    if (!sameSet(a.heads.get("q") ?? EMPTY, b.heads.get("q") ?? EMPTY)) return true;
  }
  for (const [dim, sa] of a.heads) {
    if (dim === "q") continue;
    const sb = b.heads.get(dim);
    if (sa.size > 0 && sb && sb.size > 0 && disjoint(sa, sb)) return true;
  }
  if (def.needsHead) {
    const ka = a.heads.get("kind");
    const kb = b.heads.get("kind");
    if (!ka || !kb || ka.size === 0 || kb.size === 0) return true;
  }
  return false;
}

const EMPTY: ReadonlySet<string> = new Set();

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

function disjoint(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (b.has(x)) return false;
  return true;
}
