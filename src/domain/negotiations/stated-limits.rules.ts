import type { Facets } from '../matching/facets.rules';
import { findPlaces } from '../matching/geo.rules';
import { splitSentences, type Token } from '../matching/text.rules';
import { STOP_WORDS } from '../reading/cues';
import { stemOf } from '../reading/english';

/**
 * Limits an intent states in plain English that the shared reader does not read, and that
 * accepting would otherwise leave unchecked. Read here, from the intent's own text, because the
 * reader is shared with discover; each is general language, not a word of any trade:
 * - "has to be vetted", "needs to be glazed": what must be true of the counterpart, checked
 *   like "X essential";
 * - "X is fully booked", "X unavailable": what the author cannot do, so a counterpart who seeks
 *   it is the owner's call;
 * - "within 30 miles of", "local": place is part of the deal, so an unstated place is asked;
 * - "ABC-2": a level written as letters and a number, compared with the same letters on the
 *   other side.
 */
export interface StatedLimits {
  required: string[];
  unavailable: string[];
  nearby: boolean;
  /**
   * Stems the text writes only as names (capitalised, not first in the sentence). In a language
   * that capitalises every noun (German) these are its nouns too: the need check then asks.
   */
  names: string[];
  /** Letters → the levels stated with them ("ABC-2", "ABC-3" → { ABC: ['2', '3'] }). */
  levels: Record<string, string[]>;
  /** The words as written, for messages. */
  words: { required: string[]; unavailable: string[]; nearby: string[]; levels: Record<string, string[]> };
}

export type LimitedFacets = Facets & { limits?: StatedLimits };

/** "has to be", "have got to be", "needs to be": what follows says what something must be. */
const MUST_BE = [['has', 'to', 'be'], ['have', 'to', 'be'], ['has', 'got', 'to', 'be'], ['have', 'got', 'to', 'be'], ['need', 'to', 'be']];
const RELATIVE = new Set(['that', 'which']);
/** Words after which what the clause names before them is not to be had. */
const NOT_AVAILABLE = [['fully', 'booked'], ['booked', 'up'], ['booked', 'out'], ['sold', 'out'], ['no', 'availability'], ['not', 'available'], ['unavailable']];
/** Words that say the counterpart should be near the author. */
const NEAR_WORDS = new Set(['local', 'locally']);
const DISTANCE_UNITS = new Set(['mile', 'miles', 'mi', 'km', 'kms', 'kilometre', 'kilometres', 'kilometer', 'kilometers'].map(stemOf));
const SKIPPED_BEFORE = new Set(['a', 'an', 'the', 'very', 'really', 'fully', 'properly']);
const LEVEL_RE = /(?<![\p{L}\p{N}-])(\p{Lu}{2,})[-‑](\d{1,2})(?![\p{L}\p{N}])/gu;

let stops: Set<string> | null = null;
function content(t: Token): string | null {
  stops ??= new Set(STOP_WORDS.flatMap((w) => [w, stemOf(w)]));
  const n = t.norm.replace(/^[-'’]+|[-'’]+$/g, '');
  if (n.length < 2 || /\d/.test(n)) return null;
  const s = stemOf(n);
  return stops.has(n) || stops.has(s) ? null : s;
}

const phraseAt = (tokens: Token[], i: number, phrases: string[][]) => phrases.find((p) => p.every((w, k) => tokens[i + k]?.norm === w));
const breakAt = (tokens: Token[], k: number) => tokens[k].breakBefore || (k > 0 && tokens[k].sentence !== tokens[k - 1].sentence);

export function readStatedLimits(text: string): StatedLimits {
  const tokens: Token[] = [];
  const placeAt = new Set<number>();
  for (const sentence of splitSentences(text)) {
    for (const p of findPlaces(sentence.tokens)) for (let k = p.start; k < p.end; k++) placeAt.add(tokens.length + k);
    tokens.push(...sentence.tokens);
  }
  const word = (k: number) => (placeAt.has(k) ? null : content(tokens[k]));
  const out: StatedLimits = { required: [], unavailable: [], nearby: false, names: [], levels: {}, words: { required: [], unavailable: [], nearby: [], levels: {} } };
  const add = (list: 'required' | 'unavailable', k: number, s: string) => {
    if (out[list].includes(s)) return;
    out[list].push(s);
    out.words[list].push(tokens[k].raw);
  };
  // Up to three content words of the clause from `from`, walking by `step`.
  const clauseWords = (from: number, step: 1 | -1): number[] => {
    const found: number[] = [];
    for (let k = from; k >= 0 && k < tokens.length && found.length < 3; k += step) {
      if (breakAt(tokens, step === 1 ? k : k + 1)) break;
      if (word(k)) found.push(k);
    }
    return found;
  };
  for (let i = 0; i < tokens.length; i++) {
    if (NEAR_WORDS.has(tokens[i].norm)) {
      out.nearby = true;
      out.words.nearby.push(tokens[i].raw);
    }
    // "work that has to be finished by Friday" says what the work must be, not the counterpart.
    const must = RELATIVE.has(tokens[i - 1]?.norm ?? '') ? undefined : phraseAt(tokens, i, MUST_BE);
    if (must) {
      // The words right after it, up to the first function word ("vetted by a society": vetted).
      let k = i + must.length;
      while (k < tokens.length && SKIPPED_BEFORE.has(tokens[k].norm) && !breakAt(tokens, k)) k++;
      for (let n = 0; k < tokens.length && n < 3 && !(n > 0 && breakAt(tokens, k)); k++, n++) {
        const s = word(k);
        // An adverb ends it too: "done properly" asks for something done, not for "properly".
        if (!s || (n > 0 && /ly$/.test(tokens[k].norm))) break;
        add('required', k, s);
      }
    }
    const gone = phraseAt(tokens, i, NOT_AVAILABLE);
    if (gone) {
      // What the clause names before it ("Sundays are fully booked"), back to the clause's
      // start; with nothing there, what follows it ("unavailable in August").
      const before = clauseWords(i - 1, -1);
      for (const k of before.length ? before : clauseWords(i + gone.length, 1)) add('unavailable', k, word(k)!);
    }
  }
  const lower = new Set<string>();
  const named = new Set<string>();
  tokens.forEach((t, k) => {
    const s = content(t);
    if (!s) return;
    if (/^\p{Lu}\p{Ll}+$/u.test(t.raw) && k > 0 && tokens[k - 1].sentence === t.sentence) named.add(s);
    else if (!/\p{Lu}/u.test(t.raw)) lower.add(s);
  });
  out.names = [...named].filter((s) => !lower.has(s));
  for (const m of text.matchAll(LEVEL_RE)) {
    (out.levels[m[1]] ??= []).push(m[2]);
    (out.words.levels[m[1]] ??= []).push(m[0]);
  }
  return out;
}

/** A radius in miles or kilometres beside a place: the author serves only near it. */
function statesRadius(f: Facets): boolean {
  return f.places.length > 0 && (f.reading.constraints.amounts ?? []).some((q) => DISTANCE_UNITS.has(q.unit));
}

/** The facets with the intent's stated limits: required words join the reader's, the rest ride along. */
export function withStatedLimits(f: Facets, text: string): LimitedFacets {
  const limits = readStatedLimits(text);
  if (statesRadius(f)) limits.nearby = true;
  const required = [...new Set([...(f.reading.required ?? []), ...limits.required])];
  return { ...f, reading: { ...f.reading, required }, limits };
}
