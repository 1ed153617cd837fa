import { agentBase, stemOf, wordCount } from '../reading/english';
import { readIntent, type IntentReading } from '../reading/intent-reader';

/**
 * What the local preparer reads in a draft, all of it through the general intent reader (the
 * one that discover and the negotiator read by): whether it states a need or an offer, which
 * words name its object, and whether it says where. No list of trades, roles or places lives
 * here, so the preparer judges a draft by the same reading the matcher will match it on.
 */
export interface DraftSignals {
  seeks: boolean;
  offers: boolean;
  /** States a need or an offer at all. */
  hasIntent: boolean;
  /**
   * The facts a match can be made on: the stems the reader found on either side, the places it
   * found, the languages and the money it states.
   */
  facts: string[];
  /** Two or more words name the object, every one of them everyday ("meet people"): it fits almost anyone. */
  vague: boolean;
  /** A place, a side of town, or an indefinite place ("anywhere"). */
  hasPlace: boolean;
  /** Says it happens in person (on site, in person, hybrid) or refuses remote: the place then decides who fits. */
  inPerson: boolean;
  /** The first word naming the object as written (the need's, else the offer's), for feedback that names it back. */
  objectWord: string | null;
}

/**
 * Words heard this often in general English (the 51 million words of subtitles behind
 * `wordCount`) are everyday: "people", "help", "things". A need named only in them could be
 * anyone's. Rarer words (a craft, a tool, a field) tell one need from another.
 */
const EVERYDAY = 5000;

/** Indefinite adverbs of place: saying the place does not matter is an answer to "where". */
const ANY_PLACE = /\b(anywhere|everywhere|wherever|worldwide|nearby|locally)\b/i;
/** The reader's mode values that put both sides in one place. */
const IN_PERSON = new Set(['onsite', 'inperson', 'hybrid']);
/** Capitalised words after "in" that name a time, not a place ("in March", "on Sundays"). */
const CALENDAR = /^(january|february|march|april|may|june|july|august|september|october|november|december|(mon|tues|wednes|thurs|fri|satur|sun)days?)$/i;

/**
 * Places the gazetteer does not hold (a small town, a district) are written as names: a
 * capitalised word after "in", "near" or "around", or two capitalised words mid-sentence.
 */
function namesAPlace(text: string): boolean {
  for (const m of text.matchAll(/\b(?:in|near|around|based\s+in|across|within)\s+(?:the\s+)?(\p{Lu}[\p{L}'.-]+)/gu)) {
    if (!CALENDAR.test(m[1]) && m[1] !== 'I') return true;
  }
  return /[^.!?:\n]\s+\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+/u.test(text);
}

const PAST = new Set(['had', 'was', 'were', 'went', 'did', 'saw', 'met', 'got', 'made', 'came']);
const THIRD_PERSON_STATE = new Set(['is', 'are', 'lives', 'live', 'seems', 'seem', 'looks', 'feels', 'feel']);
const FIRST_PERSON = new Set(['i', 'we', "i'm", "we're"]);

/**
 * A plain statement tells of the past or of someone else ("My brother lives in Berlin"). A
 * sentence that names a role as an agent noun of an English verb ("a juggler", whose verb is
 * "juggle") is someone presenting what they do, unless it tells of the past.
 */
function plainSentence(sentence: string): boolean {
  const words = sentence.toLowerCase().split(/\s+/).map((w) => w.replace(/^[^\p{L}']+|[^\p{L}']+$/gu, '')).filter(Boolean);
  if (words.slice(0, 6).some((w) => PAST.has(w))) return true;
  if (words.some((w) => agentBase(w.replace(/s$/, '')) !== null)) return false;
  return !FIRST_PERSON.has(words[0] ?? '') && words.slice(1, 6).some((w) => THIRD_PERSON_STATE.has(w));
}

/** A draft is a plain statement when every sentence of it is one. */
function plainStatement(text: string): boolean {
  return text.split(/[.!?\n]+/).filter((x) => /\p{L}/u.test(x)).every(plainSentence);
}

/**
 * A need or an offer as the reader sees it: a request or offer cue in any language it knows, a
 * price ("480€", "£42/h"), a listing line that names something and then its terms after a
 * colon, or a listing that names what is on offer without a verb. A plain statement of fact
 * has none of these.
 */
function statesAnExchange(text: string, reading: IntentReading): boolean {
  if (/\blorem\s+ipsum\b/i.test(text)) return false;
  if (reading.cued.seek || reading.cued.give) return true;
  if (reading.constraints.money.length || /\d\s?[$€£¥]|[$€£¥]\s?\d/.test(text)) return true;
  if (/^[^.!?\n]{3,80}:\s*\S/.test(text.trim())) return true;
  // Its words as written: a term of when or how ("weekdays only") counts, though only compared as a constraint.
  const given = new Set(reading.text.give.toLowerCase().split(/\s+/).filter(Boolean));
  return given.size >= 2 && !plainStatement(text);
}

/**
 * The words as written whose stems the reader counts (so no word of when or how), the need's
 * before the offer's, lower-cased unless capitals are inside the word ("NGO" stays).
 */
function objectWords(reading: IntentReading): string[] {
  const out: string[] = [];
  for (const side of ['seek', 'give'] as const) {
    for (const w of reading.text[side].split(/\s+/)) {
      if (reading[side][stemOf(w.toLowerCase())] !== undefined) out.push(/^\p{Lu}?\p{Ll}*$/u.test(w) ? w.toLowerCase() : w);
    }
  }
  return out;
}

/** `reading`: the reader's reading of `text`, when the caller has it already. */
export function readSignals(text: string, reading: IntentReading = readIntent(text)): DraftSignals {
  const mode = reading.constraints.values.mode ?? [];
  const named = objectWords(reading);
  return {
    seeks: reading.cued.seek,
    offers: reading.cued.give,
    hasIntent: statesAnExchange(text, reading),
    // When and how (mode, days, hours) are terms of a match, not its object, as the reader itself treats them.
    facts: [
      ...new Set([
        ...Object.keys(reading.seek),
        ...Object.keys(reading.give),
        ...reading.places.map((p) => `place:${p.key}`),
        ...(reading.constraints.values.lang ?? []).map((l) => `lang:${l}`),
        ...reading.constraints.money.map((m) => `money:${m.lo}-${m.hi}${m.currency}`),
      ]),
    ],
    vague: named.length >= 2 && named.every((w) => wordCount(w) >= EVERYDAY),
    hasPlace: reading.places.length > 0 || ANY_PLACE.test(text) || namesAPlace(text),
    // A remote value beside an on-site one (remote allowed, not required) means the place may not matter.
    inPerson: (mode.some((m) => IN_PERSON.has(m)) && mode.every((m) => IN_PERSON.has(m))) || (reading.constraints.refused.mode ?? []).some((m) => !IN_PERSON.has(m)),
    objectWord: named[0] ?? null,
  };
}

/**
 * The canonical form of a draft: what preparation reviews, what a receipt is bound to and
 * what create stores. Line breaks survive (bullet lists read better with them).
 */
export function normalizeDraft(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u200B-\u200D\uFEFF]/g, '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
