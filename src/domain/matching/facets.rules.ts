import { findAttributes, findMoney, type Dim, type MoneyAmount } from './attributes.rules';
import { findPlaces, type PlaceRef } from './geo.rules';
import { splitSentences } from './text.rules';
import { READING_VERSION, readIntent, type IntentReading } from '../reading/intent-reader';

/** Bump when the rules of this file change. */
const EXTRACTION_VERSION = 7;

/**
 * The version stored facets carry: stored facets of another version are recomputed. They hold
 * the general reader's reading too (discover ranks by it), so a new reader version is a new
 * facets version: before, a reader change left stored readings as they were until the text changed.
 */
export const FACETS_VERSION = EXTRACTION_VERSION * 100 + READING_VERSION;

/**
 * What an intent states, read by general rules: the reading (seek and give words, refusals,
 * constraints) and the constraint values the negotiator compares, with no vocabulary of trades.
 */
export interface Facets {
  v: number;
  /** Refused constraint values, as `dim:value` ("no pets", "not remote"). */
  excludes: string[];
  attrs: Partial<Record<Dim, string[]>>;
  /** Dimensions stated as hard requirements ("only", "no relocation"). */
  strict: Dim[];
  places: PlaceRef[];
  money: MoneyAmount[];
  /** The general reading (seek and give words, constraints) that ranks candidates. */
  reading: IntentReading;
}

const NEGATORS = new Set(['no', 'not', 'non', 'without', 'never', 'dont', 'wont', 'cant', 'cannot', 'isnt', 'arent', 'doesnt', 'nor', 'nobody', 'none']);

/** `reading`: the general reader's reading of `text`, when the caller has it already. */
export function extractFacets(text: string, reading: IntentReading = readIntent(text)): Facets {
  const attrs: Partial<Record<Dim, Set<string>>> = {};
  const excludes = new Set<string>();
  const strict = new Set<Dim>();
  const places: PlaceRef[] = [];
  for (const sentence of splitSentences(text)) {
    const tokens = sentence.tokens;
    const placeHits = findPlaces(tokens);
    for (const p of placeHits) places.push(p.place);
    // Constraints: negated values are refusals; "X only" / "only X" makes the dimension strict.
    for (const h of findAttributes(tokens)) {
      let negated = false;
      for (let k = h.start - 1; k >= Math.max(0, h.start - 3); k--) {
        if (NEGATORS.has(tokens[k].norm)) {
          negated = true;
          break;
        }
        if (tokens[k].breakBefore) break;
      }
      const only = tokens[h.end]?.norm === 'only' || tokens[h.start - 1]?.norm === 'only' || tokens[h.end + 1]?.norm === 'only';
      for (const v of h.values) {
        if (negated) excludes.add(`${h.dim}:${v}`);
        else (attrs[h.dim] ??= new Set()).add(v);
      }
      if (only && !negated) strict.add(h.dim);
    }
    for (let i = 0; i < tokens.length; i++) {
      const w = tokens[i].norm;
      const neg = tokens.slice(Math.max(0, i - 2), i).some((x) => NEGATORS.has(x.norm));
      if (neg && (w === 'relocation' || w === 'travel')) strict.add('place');
      if (neg && w === 'budget') (attrs.pay ??= new Set()).add('free');
      if (w === 'only' && placeHits.some((p) => p.end === i || p.end === i - 1 || p.start === i + 1)) strict.add('place');
      if ((w === 'local' || w === 'pickup') && tokens[i + 1]?.norm === 'only') strict.add('place');
    }
  }
  // Contract and freelance work is paid work unless the text says otherwise; so is a stated price.
  if (attrs.employment?.has('contract') && !attrs.pay) attrs.pay = new Set(['paid']);
  const money = findMoney(text);
  if (money.length && !attrs.pay && money.some((m) => m.unit !== 'total' || m.lo > 0)) (attrs.pay ??= new Set()).add('paid');
  return {
    v: FACETS_VERSION,
    excludes: [...excludes],
    attrs: Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, [...(v as Set<string>)]])) as Facets['attrs'],
    strict: [...strict],
    places: dedupePlaces(places),
    money,
    reading,
  };
}

function dedupePlaces(places: PlaceRef[]): PlaceRef[] {
  const seen = new Map<string, PlaceRef>();
  for (const p of places) seen.set(`${p.kind}:${p.key}:${p.area ?? ''}`, p);
  return [...seen.values()];
}
