import type { IntentReading } from '../reading/intent-reader';
import { constraintPenalty } from './constraint-fit';
import { scoreReadings, type Idf, type PairScore, type ScoreParams } from './pair-score';

/**
 * Below this a candidate is no counterparty (MATCH_MIN_SCORE's default): scores mean the same in
 * every query, and 0.05 is a few shared common words. Calibrated in docs/matching.md.
 */
export const DEFAULT_MIN_SCORE = 0.05;

export interface RankOptions {
  limit: number;
  /** Candidates scoring below this are not counterparties. */
  minScore: number;
  /** Candidates scoring below this share of the best candidate's score are left out (0: none). */
  relative?: number;
  /** Whether each result's detail lists its penalties' reasons (default true); discover only orders. */
  explain?: boolean;
}

export interface Ranked {
  id: string;
  score: number;
  detail: PairScore;
}

/** Scores every candidate against the query and returns the best, highest first. */
export function rankCandidates(q: IntentReading, candidates: Array<{ id: string; reading: IntentReading }>, idf: Idf, params: ScoreParams, opts: RankOptions): Ranked[] {
  return candidates
    .map(({ id, reading }) => {
      const reasons: string[] = [];
      const penalty = constraintPenalty(q, reading, opts.explain === false ? undefined : reasons);
      const detail = scoreReadings(q, reading, idf, params, penalty, reasons);
      return { id, score: detail.score, detail };
    })
    .filter((r) => r.score > 0 && r.score >= opts.minScore)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .filter((r, _, all) => r.score >= (opts.relative ?? 0) * all[0].score)
    .slice(0, opts.limit);
}
