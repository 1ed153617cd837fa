import { stemOf } from './english';

/**
 * A counted amount an intent states: "10+ pallets", "5–8 kW", "up to 200 seats", "~40 chairs".
 * The unit is the word after the number, stemmed, so two intents' amounts compare only when they
 * count the same thing. Money is read elsewhere (findMoney); years, times of day and percentages
 * are not amounts of a thing.
 */
export interface Quantity {
  unit: string;
  lo: number;
  hi: number;
  /** As written, for messages ("10+ pallets"). */
  text: string;
}

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?`;
const QUANTITY_RE = new RegExp(
  String.raw`(?<![\w$€£¥.,/:-])(up to |max(?:imum)? |at least |min(?:imum)? |over |under |~)?(${NUMBER})(?:\s?(?:[–-]|to)\s?(${NUMBER}))?(\+)?\s?([A-Za-z][A-Za-z]+)`,
  'gi',
);

/** Words after a number that do not count things the two sides could disagree on. */
// Durations are left out too: experience against a track record, or a deadline against a
// turnaround time, are more often both fine than apart, though their numbers differ.
const NOT_UNITS = new Set(['second', 'seconds', 'minute', 'minutes', 'min', 'mins', 'hour', 'hours', 'hr', 'hrs', 'day', 'days', 'week', 'weeks', 'wk', 'wks', 'month', 'months', 'mo', 'year', 'years', 'yr', 'yrs', 'season', 'seasons', 'am', 'pm', 'st', 'nd', 'rd', 'th', 'of', 'and', 'or', 'to', 'in', 'at', 'on', 'for', 'per', 'a', 'an', 'the', 'x', 'k', 'm']);

const value = (s: string) => Number(s.replace(/,/g, ''));
/** "50+": no upper bound. Finite, so that a stored reading keeps it through JSON. */
export const UNBOUNDED = Number.MAX_SAFE_INTEGER;

export function findQuantities(text: string): Quantity[] {
  const out: Quantity[] = [];
  for (const m of text.matchAll(QUANTITY_RE)) {
    const [whole, bound, a, b, plus, word] = m;
    const unitWord = word.toLowerCase();
    if (NOT_UNITS.has(unitWord)) continue;
    // A year ("since 2016") is a date, not an amount.
    if (!b && /^(19|20)\d\d$/.test(a)) continue;
    let lo = value(a);
    let hi = b ? value(b) : lo;
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi < lo) continue;
    const kind = (bound ?? '').trim().toLowerCase();
    if (plus || kind === 'at least' || kind.startsWith('min') || kind === 'over') hi = UNBOUNDED;
    if (kind === 'up to' || kind.startsWith('max') || kind === 'under') lo = 0;
    if (kind === '~') [lo, hi] = [lo * 0.8, hi * 1.2];
    out.push({ unit: stemOf(unitWord), lo, hi, text: whole.trim() });
  }
  return out;
}

/** Whether two amounts of one unit overlap (with 20% slack). */
export function quantitiesOverlap(a: Quantity, b: Quantity): boolean {
  return a.lo <= b.hi * 1.2 && b.lo <= a.hi * 1.2;
}
