import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { evaluate } from '../../scripts/eval-offline';
import { extractFacets } from '../../src/domain/matching/facets.rules';
import { MIN_SCORE, scorePair } from '../../src/domain/matching/ranking.rules';

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

// The development set lives beside the repository (shared/eval); the goal of the issue guards it.
const data = ['../../../shared/eval/matching-dev.json', '../../../../shared/eval/matching-dev.json'].map((p) => resolve(__dirname, p)).find((p) => existsSync(p));
(data ? describe : describe.skip)('development set (shared/eval/matching-dev.json)', () => {
  it('meets the goal with the local default: nDCG@10 >= 0.85, hardneg@3 <= 0.10, no leakage', () => {
    const result = evaluate(JSON.parse(readFileSync(data!, 'utf8')), { threshold: true });
    expect(result.all['ndcg@10']).toBeGreaterThanOrEqual(0.85);
    expect(result.all['hardneg@3']).toBeLessThanOrEqual(0.1);
    expect(result.all.leakage).toBe(0);
  });
});
