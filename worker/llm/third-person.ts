/**
 * First person to third for the rules provider's facts (rules.ts, rule 5 of its header):
 * "I prefer my tea" said by the user becomes "The user prefers their tea". Word by word, with
 * the few grammar tables it needs: modals, irregular pasts, adverbs, contractions.
 */
const MODALS = new Set(
  "can could will would shall should may might must ought used cannot can't couldn't won't wouldn't shouldn't mustn't didn't wasn't".split(
    " ",
  ),
);
/** Past forms (and present forms identical to them, read as past: "I quit", "I read"). */
const IRREGULAR_PAST = new Set(
  (
    "was were went got had did made took bought left came saw met began became chose knew thought " +
    "told said found gave grew felt kept lost paid ran sent sold spent stood taught understood " +
    "won wrote broke brought built caught drove fell flew forgot hid held led meant put quit read " +
    "set sat slept spoke swam woke wore cut hit let shut heard moved"
  ).split(" "),
);
const ADVERBS = new Set(
  (
    "always never usually often sometimes also just still mostly generally actually definitely " +
    "rarely seldom only currently now recently typically normally mainly absolutely totally " +
    "much already even"
  ).split(" "),
);
/** Present-tense verbs that end in "ed" like a past form. */
const PRESENT_ED = new Set(
  "need feed seed bleed breed speed proceed succeed exceed shed wed embed heed".split(" "),
);
/** Words after "I" that are not a verb to conjugate: stop there. */
const NOT_VERBS = new Set("and or but nor to of in on at with the a an too".split(" "));

const CONTRACTED: Record<string, string> = {
  "i'm": "is",
  "i've": "has",
  "i'd": "would",
  "i'll": "will",
};

/** Third person of a present-tense verb: prefer → prefers, try → tries, watch → watches. */
function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const special: Record<string, string> = {
    am: "is",
    have: "has",
    do: "does",
    go: "goes",
    "don't": "doesn't",
    "haven't": "hasn't",
    "i'm": "is",
  };
  const known = special[lower];
  if (known) return known;
  if (MODALS.has(lower) || IRREGULAR_PAST.has(lower)) return verb;
  if (lower.endsWith("ed") && !PRESENT_ED.has(lower)) return verb;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  return `${verb}s`;
}

/**
 * Rewrites first-person singular for `speaker` (rule 5 of the header). Works word by word on
 * the sentence split at white space, so punctuation attached to a word stays where it was.
 */
export function toThirdPerson(sentence: string, speaker: string): string {
  const parts = sentence.split(/(\s+)/);
  // The speaker is named once; later possessives and objects are pronouns ("The user would
  // like their reports", not "the user's reports").
  let named = false;
  const name = (pronoun: string, full: string) => {
    if (named) return pronoun;
    named = true;
    return full;
  };
  // Index of the word whose verb form must agree with the speaker, when one is pending.
  let agree = false;
  let adverbs = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const part = parts[i] ?? "";
    const m = part.match(/^([^\p{L}\p{N}]*)([\p{L}\p{N}'’-]*)(.*)$/u);
    if (!m) continue;
    const [, lead = "", core = "", trail = ""] = m;
    const word = core.replace(/’/g, "'");
    const lower = word.toLowerCase();
    let replaced: string | null = null;
    let nextAgrees = false;

    if (agree) {
      if (ADVERBS.has(lower) || (lower.endsWith("ly") && lower.length > 4 && adverbs < 2)) {
        adverbs++;
        nextAgrees = trail === "";
      } else if (!NOT_VERBS.has(lower) && /^\p{Ll}/u.test(word)) {
        replaced = thirdPerson(word);
      }
    } else if (lower === "i" && !/^\.\p{L}/u.test(trail)) {
      replaced = speaker;
      named = true;
      nextAgrees = trail === "";
    } else if (CONTRACTED[lower]) {
      replaced = `${speaker} ${CONTRACTED[lower]}`;
      named = true;
    } else if (lower === "my") {
      replaced = name("their", `${speaker}'s`);
    } else if (lower === "mine") {
      replaced = name("theirs", `${speaker}'s`);
    } else if (lower === "me") {
      replaced = name("them", speaker);
    } else if (lower === "myself") {
      replaced = "themselves";
    }
    if (!nextAgrees) adverbs = 0;
    agree = nextAgrees;
    if (replaced !== null) parts[i] = `${lead}${replaced}${trail}`;
  }
  return parts.join("");
}
