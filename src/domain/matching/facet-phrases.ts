import { cutText } from '../shared/text-cut';
import type { Dim, MoneyAmount } from './attributes.rules';
import type { PlaceRef } from './geo.rules';

/**
 * Facets in words, for the text people and agents read (cards, negotiation messages, questions
 * to owners). Only wording lives here; what the facets mean stays in src/domain/matching.
 */

const STAGES = ['pre-seed', 'seed', 'Series A', 'Series B', 'Series C', 'Series D', 'IPO'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const VALUE_WORDS: Partial<Record<Dim, Record<string, string>>> = {
  employment: { ft: 'full-time', pt: 'part-time', interim: 'interim', contract: 'contract or freelance' },
  mode: { remote: 'remote', onsite: 'on-site', hybrid: 'hybrid', inperson: 'in person', virtual: 'online' },
  pay: { paid: 'paid', free: 'unpaid', revshare: 'revenue share' },
  daytype: { weekday: 'weekdays', weekend: 'weekends' },
  daypart: { morning: 'mornings', afternoon: 'afternoons', evening: 'evenings', day: 'daytime' },
  pet: { any: 'pets', dog: 'dogs', cat: 'cats', bird: 'birds', rabbit: 'rabbits', horse: 'horses' },
};

/** What a dimension is called in a question or a summary. */
export const DIM_NAMES: Record<Dim, string> = {
  stage: 'stage',
  employment: 'kind of engagement',
  mode: 'remote or in person',
  pay: 'pay',
  daytype: 'days',
  daypart: 'time of day',
  month: 'timing',
  lang: 'language',
  pet: 'pets',
  place: 'place',
};

const capital = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

export function listWords(items: string[], joiner = 'and'): string {
  const unique = [...new Set(items.filter(Boolean))];
  if (unique.length <= 1) return unique[0] ?? '';
  return `${unique.slice(0, -1).join(', ')} ${joiner} ${unique[unique.length - 1]}`;
}

/** A concept as a thing ("funding") or, with `agent`, as who provides it ("investor"). */
export function dimValueWords(dim: Dim, values: string[]): string {
  const words = values.map((v) => {
    if (dim === 'stage') return STAGES[Number(v)] ?? v;
    if (dim === 'month') return MONTHS[Number(v) - 1] ?? v;
    if (dim === 'lang') return capital(v);
    return VALUE_WORDS[dim]?.[v] ?? v.replace(/-/g, ' ');
  });
  return listWords(words, 'or');
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const REGION_WORDS: Record<string, string> = {
  cee: 'Central and Eastern Europe',
  eu: 'the EU',
  dach: 'DACH',
  latam: 'Latin America',
  'middle-east': 'the Middle East',
  'british-isles': 'the British Isles',
};

export function placeWords(p: PlaceRef): string {
  if (p.kind === 'country') {
    try {
      return regionNames.of(p.key) ?? p.key;
    } catch {
      return p.key;
    }
  }
  if (p.kind === 'region') return REGION_WORDS[p.key] ?? p.key.split('-').map(capital).join(' ');
  if (p.kind === 'area') return `the ${p.key} side`;
  // A province's key carries its country ("us:nebraska"): the name alone is what people write.
  const name = p.kind === 'province' ? p.key.slice(p.key.indexOf(':') + 1) : p.key;
  const city = name.split(' ').map(capital).join(' ');
  return p.area ? `${p.area === 'central' ? 'central' : `${p.area}`} ${city}` : city;
}

export function placesWords(places: PlaceRef[], joiner = 'and'): string {
  return listWords(places.map(placeWords), joiner);
}

const UNIT_WORDS: Record<MoneyAmount['unit'], string> = { month: ' a month', hour: ' an hour', item: ' each', total: '' };

function amount(n: number, currency: string): string {
  if (!Number.isFinite(n)) return '';
  if (n >= 1e6) return `${currency}${+(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${currency}${+(n / 1e3).toFixed(1)}k`;
  return `${currency}${n}`;
}

export function moneyWords(m: MoneyAmount): string {
  const hi = m.hi === null || !Number.isFinite(m.hi) ? Infinity : m.hi;
  const range = m.lo === 0 ? `up to ${amount(hi, m.currency)}` : hi === Infinity ? `${amount(m.lo, m.currency)} or more` : m.lo === hi ? amount(m.lo, m.currency) : `${amount(m.lo, m.currency)}–${amount(hi, m.currency)}`;
  return `${range}${UNIT_WORDS[m.unit]}`;
}

/** The first name, for short labels ("Waiting for Petra"). */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] || name;
}

/** Cuts text at a word boundary, with an ellipsis when it was longer. */
export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  return `${cutText(t, max - 1).replace(/\s+\S*$/, '')}…`;
}
