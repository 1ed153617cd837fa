import type { IntentReading } from '../reading/intent-reader';

/** How rare a stem is among the intents compared: rarer shared words say more. */
export type Idf = (stem: string) => number;

export interface ScoreParams {
  /** Weight of the candidate's need met by the query's offer, against the query's need met (1). */
  reverse: number;
  /** Weight of words both sides give (the shared topic). Sought × sought earns nothing. */
  topic: number;
  /** Raw evidence at which the score reaches 1 − 1/e. */
  scale: number;
  /**
   * How much a candidate's own stated need that the query does not meet lowers the score: an
   * introduction should serve both people, and someone after something else is a weaker one.
   */
  unmet: number;
  /**
   * Weight of the geometric mean of the two directions: an introduction where each offers what
   * the other seeks outranks one that serves a single side with the same evidence.
   */
  both: number;
}

export const DEFAULT_PARAMS: ScoreParams = { reverse: 0.5, topic: 0.2, scale: 8, unmet: 0.4, both: 1 };

export interface PairScore {
  score: number;
  raw: number;
  need: number;
  reverse: number;
  topic: number;
  penalty: number;
  /** The factor for the candidate's own need left unmet (1: none stated, or all met). */
  unmetFactor: number;
  reasons: string[];
}

function shared(a: Record<string, number>, b: Record<string, number>, idf: Idf): number {
  let s = 0;
  for (const t of Object.keys(a)) if (b[t] !== undefined) s += idf(t);
  return s;
}

/**
 * Complementarity of two readings: the rare words the query seeks that the candidate gives, and
 * the reverse, plus a lesser share of words both give, plus the geometric mean of the two
 * directions (zero unless each side meets the other). Two parties seeking the same thing earn
 * nothing from it. The raw evidence maps to [0, 1) by 1 − e^(−raw/scale), so a score means the
 * same in every query.
 */
export function scoreReadings(q: IntentReading, c: IntentReading, idf: Idf, p: ScoreParams = DEFAULT_PARAMS, penalty = 1, reasons: string[] = []): PairScore {
  const need = shared(q.seek, c.give, idf);
  const reverse = shared(c.seek, q.give, idf);
  const topic = shared(q.give, c.give, idf);
  const raw = need + p.reverse * reverse + p.topic * topic + p.both * Math.sqrt(need * reverse);
  const unmetFactor = unmetNeedFactor(c, reverse, idf, p.unmet);
  const score = (1 - Math.exp(-raw / p.scale)) * penalty * unmetFactor;
  return { score, raw, need, reverse, topic, penalty, unmetFactor, reasons };
}

/**
 * 1 − unmet × (share of the candidate's need the query leaves unmet) × (how much of what the
 * candidate writes is need). A candidate that states no need, or whose need the query meets,
 * keeps its score; one that mostly asks for something the query does not give loses up to
 * `unmet` of it. Same words, weighed by rarity as everywhere else.
 */
function unmetNeedFactor(c: IntentReading, met: number, idf: Idf, unmet: number): number {
  if (!unmet) return 1;
  let seek = 0;
  let give = 0;
  for (const t of Object.keys(c.seek)) seek += idf(t);
  if (!seek) return 1;
  for (const t of Object.keys(c.give)) give += idf(t);
  return 1 - unmet * (1 - Math.min(1, met / seek)) * (seek / (seek + give));
}
