import { extractFacets } from '../../src/domain/matching/facets.rules';
import { categoryOf, confidenceOf, rolesOf } from '../../src/domain/opportunities/card-evidence';
import { quotedWords } from '../../src/domain/reading/intent-reader';
import { localCard } from '../../src/domain/opportunities/local-card-writer';
import { readIntent, type IntentReading } from '../../src/domain/reading/intent-reader';

// Every stem weighs the same, so the ratios below are the counts of stems met.
const flat = () => 1;

function reading(seek: string[], give: string[]): IntentReading {
  const r = readIntent('');
  return { ...r, seek: Object.fromEntries(seek.map((t) => [t, 1])), give: Object.fromEntries(give.map((t) => [t, 1])) };
}

const side = (name: string, text: string) => ({ name, intentText: text, facets: extractFacets(text) });

const TUNER = 'Seeking a Harpsichord tuner, quills and vellum. I restore antique barometers.';
const KEEPER = 'Harpsichord tuning, quills and vellum, forty years of it. We need barometer restorers for our society.';
const ASKS = 'Seeking mandolin varnish and gilding.';
const GIVES = 'Mandolin varnish, gilding and parchment.';

describe('quoted words', () => {
  it('quotes the words of the text whose stem is met, as written, in order, once per stem, at most max', () => {
    expect(quotedWords('Harpsichord tuning quills vellum quill forty years', ['vellum', 'quill', 'harpsichord'])).toEqual(['Harpsichord', 'quills', 'vellum']);
    expect(quotedWords('Harpsichord tuning quills vellum', ['vellum', 'quill', 'harpsichord'], 2)).toEqual(['Harpsichord', 'quills']);
    expect(quotedWords('Harpsichord tuning', ['tuner'])).toEqual([]);
  });
});

describe('roles from the weight of each need met', () => {
  it('makes the side whose need is met more the seeker, from either seat', () => {
    const a = reading(['x', 'y'], ['z']);
    const b = reading(['z'], ['x', 'y']);
    expect(rolesOf(a, b, flat)).toEqual({ a: 'seeker', b: 'provider' });
    expect(rolesOf(b, a, flat)).toEqual({ a: 'provider', b: 'seeker' });
  });

  it('makes a side whose need alone is met the seeker', () => {
    expect(rolesOf(reading([], ['x']), reading(['x'], []), flat)).toEqual({ a: 'provider', b: 'seeker' });
  });

  it('makes both peers at a ratio of 1.5 or less, or when nothing is met', () => {
    expect(rolesOf(reading(['x', 'y', 'w'], ['u', 'v']), reading(['u', 'v'], ['x', 'y', 'w']), flat)).toEqual({ a: 'peer', b: 'peer' });
    expect(rolesOf(reading(['x'], ['y']), reading(['q'], ['r']), flat)).toEqual({ a: 'peer', b: 'peer' });
  });

  it('weighs rare stems more (IDF over the two readings)', () => {
    const idf = (t: string) => (t === 'rare' ? 5 : 1);
    expect(rolesOf(reading(['rare'], ['x', 'y', 'w']), reading(['x', 'y', 'w'], ['rare']), idf)).toEqual({ a: 'seeker', b: 'provider' });
  });
});

describe('confidence', () => {
  it('is the mean of the pair score of both directions, to two decimals', () => {
    // a→b: need 1 → 1 − e^(−1/8); b→a: reverse 1 at half weight → 1 − e^(−0.5/8); mean 0.089.
    expect(confidenceOf(reading(['x'], []), reading([], ['x']), flat)).toBe(0.09);
    expect(confidenceOf(reading([], ['x']), reading(['x'], []), flat)).toBe(0.09);
    expect(confidenceOf(reading(['x'], ['q']), reading(['r'], ['y']), flat)).toBe(0);
  });
});

describe('category', () => {
  it('is the first word of the request head, lower-cased as written', () => {
    expect(categoryOf(readIntent(TUNER), readIntent(KEEPER))).toBe('harpsichord');
  });

  it('falls back to the first met word, then to general', () => {
    const seeker = { ...reading(['varnish', 'gild'], []), text: { seek: 'Gilding varnish', give: '', refuse: '' } };
    expect(categoryOf(seeker, reading([], ['varnish']))).toBe('varnish');
    expect(categoryOf(reading(['x'], []), reading([], ['y']))).toBe('general');
  });
});

describe('the rule-based card', () => {
  it('quotes what each offers that the other seeks in the peer’s own words', () => {
    const card = localCard({ a: side('Ada Tuner', TUNER), b: side('Ben Keeper', KEEPER), introducer: null, networkTitle: null });
    expect(card.a.headline).toBe('Ben Keeper offers "Harpsichord" and "quills"');
    expect(card.a.mainText).toContain('Ben Keeper offers "Harpsichord", "quills" and "vellum", which you are looking for. Ben seeks "barometer" and "restorers", which you offer.');
    expect(card.b.headline).toBe('Ada Tuner offers "restore" and "barometers"');
    expect(card.b.mainText).toContain('Ada seeks "Harpsichord", "quills" and "vellum", which you offer.');
    // Three stems met one way, two the other: even enough for peers.
    expect(card).toMatchObject({ roles: { a: 'peer', b: 'peer' }, category: 'harpsichord', writer: 'local' });
    expect(card.confidence).toBeGreaterThan(0);
  });

  it('names the seeker and files the card under what the seeker asks for first', () => {
    const card = localCard({ a: side('Ben Maker', GIVES), b: side('Ada Player', ASKS), introducer: null, networkTitle: null });
    expect(card.roles).toEqual({ a: 'provider', b: 'seeker' });
    expect(card.category).toBe('mandolin');
    expect(card.a.headline).toBe('Ada Player seeks "mandolin" and "varnish"');
    expect(card.b.headline).toBe('Ben Maker offers "Mandolin" and "varnish"');
  });
});
