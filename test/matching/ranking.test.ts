import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluate, lookalikeReport } from '../../scripts/eval-offline';
import { extractFacets } from '../../src/domain/matching/facets.rules';
import { MIN_SCORE, scorePair } from '../../src/domain/matching/ranking.rules';
import { loadDevSet } from '../helpers/dev-set';

const score = (a: string, b: string) => scorePair(extractFacets(a), extractFacets(b)).score;

describe('complementarity ranking', () => {
  it('puts the counterpart above the same-side look-alike', () => {
    const q = 'Our agency is hiring a part-time frontend developer (React), remote within the UK.';
    const counterpart = score(q, 'Frontend developer, React and TypeScript, looking for part-time remote work in the UK.');
    expect(counterpart).toBeGreaterThanOrEqual(MIN_SCORE);
    expect(counterpart).toBeGreaterThan(score(q, 'We are also hiring a frontend developer for our React app, remote UK.'));
  });

  it('falls back to the words of need and offer for a trade the vocabulary does not know', () => {
    const q = 'Our bakery needs a part-time delivery driver for weekend mornings in Leeds.';
    const counterpart = score(q, 'Driver with my own van, free weekend mornings, based in Leeds.');
    expect(counterpart).toBeGreaterThanOrEqual(MIN_SCORE);
    expect(score(q, 'Our cafe also needs a delivery driver on weekends in Leeds.')).toBeLessThan(MIN_SCORE);
  });

  it('reads refusals: "not a composer", "no pets"', () => {
    const q = 'Looking for a composer for our puzzle game soundtrack.';
    expect(score(q, 'Sound designer for games, SFX and foley. Not a composer.')).toBeLessThan(MIN_SCORE);
    expect(score('Room for rent in a flat in Manchester, cats welcome.', 'Looking for a room in Manchester. No pets please, allergic.')).toBeLessThan(score('Room for rent in a flat in Manchester, cats welcome.', 'Looking for a room in Manchester, I have a cat.'));
  });

  it('penalises places far apart and conflicting stages', () => {
    const q = 'Raising a pre-seed round for a climate app in Lisbon; looking for angel investors in Portugal.';
    expect(score(q, 'Angel investor in Portugal, pre-seed and seed tickets.')).toBeGreaterThan(score(q, 'Angel investor in Japan, pre-seed and seed tickets.'));
    expect(score(q, 'Angel investor in Portugal, pre-seed and seed tickets.')).toBeGreaterThan(score(q, 'Investor in Portugal for Series C and later rounds only.'));
  });

  it('gives scores in [0, 1] and nothing for an unrelated pair', () => {
    const s = score('Need a wedding photographer in Dublin in June.', 'Selling my mountain bike.');
    expect(s).toBeGreaterThanOrEqual(0);
    expect(s).toBeLessThan(MIN_SCORE);
    expect(score('Need a wedding photographer in Dublin in June.', 'Wedding photographer based in Dublin, booking June.')).toBeLessThanOrEqual(1);
  });
});

describe('look-alikes that share words, not needs', () => {
  // The audit's examples (issue 4): gear for sale, books for sale, a course about the tool.
  const CLIMBER = 'Seeking a climbing partner for weekday evenings at the bouldering gym in Sheffield.';
  const TUTOR = 'Looking for a Spanish tutor for my kids.';
  const CLINIC = 'Our dental clinic in Leeds needs a part-time bookkeeper who knows QuickBooks.';

  it('reads "selling <item>" as goods offered, not the activity', () => {
    const partner = score(CLIMBER, 'Climber in Sheffield, free most weekday evenings, looking for someone to boulder with.');
    const shoes = score(CLIMBER, 'Selling climbing shoes size 42, Sheffield.');
    expect(partner).toBeGreaterThanOrEqual(0.6);
    expect(shoes).toBeLessThan(MIN_SCORE);
    expect(extractFacets('Selling climbing shoes size 42, Sheffield.').offers).toEqual({ goods: expect.any(Number) });
    expect(score(TUTOR, 'Selling Spanish textbooks for kids')).toBeLessThan(MIN_SCORE);
    expect(score(TUTOR, 'Spanish tutor for kids, online lessons.')).toBeGreaterThanOrEqual(0.6);
  });

  it('treats an activity as mutual only when the text asks for company', () => {
    expect(extractFacets('Looking for a hiking buddy for Sundays.').offers).toHaveProperty('hiking');
    expect(extractFacets('Keen hiker, would love someone to hike with.').seeks).toHaveProperty('hiking');
    const coach = extractFacets('Basketball coach in Oakland offering private training for teens.');
    expect(coach.seeks).not.toHaveProperty('basketball');
    expect(coach.offers).not.toHaveProperty('basketball');
    expect(score('Anyone want to play pickup basketball on Tuesday nights in Oakland?', 'Basketball coach in Oakland offering private training for teens.')).toBeLessThan(MIN_SCORE);
  });

  it('matches a buyer with a seller of the goods', () => {
    const buyer = 'Buying a used road bike, 54 cm, under $600, Denver.';
    expect(score(buyer, 'Selling my road bike, 54 cm, $550, Denver.')).toBeGreaterThanOrEqual(0.6);
    expect(score(buyer, 'Looking for a cycling buddy in Denver.')).toBeLessThan(MIN_SCORE);
    // Selling as a skill is not a sale.
    expect(extractFacets('Enterprise sales lead, ten years selling software to banks, open to a new role.').offers).toHaveProperty('sales');
  });

  it('reads a course or workshop about a trade as teaching, not the trade', () => {
    const q = 'Need an accountant for my small bakery\'s tax return.';
    expect(score(q, 'Offering free tax return workshops at the library.')).toBeLessThan(MIN_SCORE);
    expect(score(q, 'Accountant taking on small business clients for tax returns.')).toBeGreaterThanOrEqual(0.6);
  });

  it('never lets the word fallback introduce a candidate that names no concept for a need the vocabulary reads', () => {
    const course = scorePair(extractFacets(CLINIC), extractFacets('Offering QuickBooks training courses online'));
    expect(course.score).toBeLessThan(MIN_SCORE);
    const words = scorePair(extractFacets(CLINIC), extractFacets('QuickBooks whizz, evenings free, Leeds.'));
    expect(words.reasons).toContain('words');
    expect(words.score).toBeLessThan(MIN_SCORE);
    expect(score(CLINIC, 'Freelance bookkeeper, QuickBooks certified, taking on small clients in Leeds.')).toBeGreaterThanOrEqual(0.6);
  });
});

const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8'));

describe('look-alike sets (test/matching/fixtures)', () => {
  it('round 1, used to fix the rules: every look-alike under the cut-off, the counterpart above them in 19 of 20', () => {
    const r = lookalikeReport(fixture('lookalikes-tuned.json'));
    expect(r.lookalikesAtOrAboveCut).toBe(0);
    expect(r.counterpartOutranksLookalikes).toBeGreaterThanOrEqual(19);
    expect(r.counterpartsAtOrAboveCut).toBeGreaterThanOrEqual(17);
  });

  // Held out: written after the rules changed and run once; these bounds are its first figures
  // (docs/matching.md lists the failures). They guard against regressions, they were not tuned.
  it('held out: at most 5 of 40 look-alikes reach the cut-off, the counterpart outranks them in at least 17 of 20', () => {
    const data = fixture('lookalikes-held-out.json');
    const r = lookalikeReport(data);
    expect(r.lookalikesAtOrAboveCut).toBeLessThanOrEqual(5);
    expect(r.counterpartOutranksLookalikes).toBeGreaterThanOrEqual(17);
    expect(r.counterpartsAtOrAboveCut).toBeGreaterThanOrEqual(16);
    const ranked = evaluate(data, { threshold: true });
    expect(ranked.all['hardneg@3']).toBeLessThanOrEqual(0.15);
    expect(ranked.all.leakage).toBe(0);
  });
});

// The development set lives beside the repository (shared/eval, or MATCHING_DEV_SET); missing, it fails.
describe('development set (shared/eval/matching-dev.json)', () => {
  it('meets the goal with the local default: nDCG@10 >= 0.85, hardneg@3 <= 0.10, no leakage', () => {
    const result = evaluate(loadDevSet(), { threshold: true });
    expect(result.all['ndcg@10']).toBeGreaterThanOrEqual(0.85);
    expect(result.all['hardneg@3']).toBeLessThanOrEqual(0.1);
    expect(result.all.leakage).toBe(0);
  });
});
