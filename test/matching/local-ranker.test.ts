import { rankCandidates } from '../../src/domain/matching/local-ranker';
import { DEFAULT_PARAMS, scoreReadings } from '../../src/domain/matching/pair-score';
import { constraintPenalty, PENALTY } from '../../src/domain/matching/constraint-fit';
import { idfFrom } from '../../src/domain/matching/term-stats';
import { readIntent } from '../../src/domain/reading/intent-reader';

const texts = {
  query: 'Need a bookbinder to restore a leather-bound atlas.',
  binder: 'Bookbinder with a small workshop: I restore leather bindings and rebind atlases.',
  // Gives the same craft but mostly asks for something the query does not give.
  binderBuying: 'Bookbinder, I restore leather bindings. Hoping to buy a second-hand guillotine cutter and a nipping press.',
};

const readings = Object.fromEntries(Object.entries(texts).map(([k, t]) => [k, readIntent(t)])) as Record<keyof typeof texts, ReturnType<typeof readIntent>>;
const idf = idfFrom(Object.values(readings));

describe('the local ranker', () => {
  it('lowers a candidate whose own stated need the query leaves unmet, within bounds', () => {
    const plain = scoreReadings(readings.query, readings.binder, idf, DEFAULT_PARAMS);
    const buying = scoreReadings(readings.query, readings.binderBuying, idf, DEFAULT_PARAMS);
    expect(plain.unmetFactor).toBe(1);
    expect(buying.unmetFactor).toBeLessThan(1);
    expect(buying.unmetFactor).toBeGreaterThanOrEqual(1 - DEFAULT_PARAMS.unmet);
    const ranked = rankCandidates(readings.query, [{ id: 'buying', reading: readings.binderBuying }, { id: 'plain', reading: readings.binder }], idf, DEFAULT_PARAMS, { limit: 10, minScore: 0 });
    expect(ranked.map((r) => r.id)).toEqual(['plain', 'buying']);
    // Off, the factor costs nothing.
    expect(scoreReadings(readings.query, readings.binderBuying, idf, { ...DEFAULT_PARAMS, unmet: 0 }).unmetFactor).toBe(1);
  });

  it('adds the geometric mean of both directions, so a two-way introduction outranks a one-way one', () => {
    const q = readIntent('Need a letterpress printer for wedding invitations. I can offer bookkeeping in return.');
    const twoWay = readIntent('Letterpress printer, I print wedding invitations. Looking for help with bookkeeping.');
    const oneWay = readIntent('Letterpress printer, I print wedding invitations and menus. Looking for a van driver.');
    const pool = idfFrom([q, twoWay, oneWay]);
    const none = { ...DEFAULT_PARAMS, both: 0 };
    const a = scoreReadings(q, twoWay, pool, DEFAULT_PARAMS);
    expect(a.need).toBeGreaterThan(0);
    expect(a.reverse).toBeGreaterThan(0);
    expect(a.raw - scoreReadings(q, twoWay, pool, none).raw).toBeCloseTo(DEFAULT_PARAMS.both * Math.sqrt(a.need * a.reverse), 6);
    // One direction only: the term is zero.
    const b = scoreReadings(q, oneWay, pool, DEFAULT_PARAMS);
    expect(b.reverse).toBe(0);
    expect(b.raw).toBeCloseTo(scoreReadings(q, oneWay, pool, none).raw, 9);
    expect(a.score).toBeGreaterThan(b.score);
  });

  it('keeps the candidate whose need the query meets', () => {
    const q = readIntent('Bookbinder with a nipping press and a guillotine cutter, happy to lend them.');
    const c = readIntent('Need a nipping press and a guillotine cutter.');
    const detail = scoreReadings(q, c, idfFrom([q, c]), DEFAULT_PARAMS);
    expect(detail.unmetFactor).toBeCloseTo(1, 5);
    expect(detail.score).toBeGreaterThan(0);
    expect(detail.score).toBeLessThan(1);
  });

  it('counts a refusal against what the other side seeks as well as what it gives', () => {
    const q = readIntent('Need a watchmaker to repair a pocket watch.');
    const refuser = readIntent('Clock workshop in the old town. No watches, we repair wall clocks only.');
    const reasons: string[] = [];
    expect(constraintPenalty(q, refuser, reasons)).toBeCloseTo(PENALTY.refused, 5);
    expect(reasons).toContain('refused');
  });

  it('weighs weekdays against weekends and mornings against evenings', () => {
    const q = readIntent('Seeking a chess opponent; weekdays, mornings.');
    const c = readIntent('Chess player, free on weekends and in the evening.');
    const reasons: string[] = [];
    expect(constraintPenalty(q, c, reasons)).toBeCloseTo(PENALTY.daytype * PENALTY.daypart, 5);
    expect(reasons).toEqual(expect.arrayContaining(['daytype', 'daypart']));
    expect(constraintPenalty(q, readIntent('Chess player, free weekdays, mornings.'), [])).toBe(1);
  });
});
