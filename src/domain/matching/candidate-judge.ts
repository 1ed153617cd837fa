import type { CandidateJudgement } from './ports';

/** How many of the local ranker's best a judge reads. */
export const JUDGED = 10;

/**
 * The judged score: the local score and the model's fit weigh equally, and a broken constraint
 * keeps a third of it, so the score stays absolute in [0, 1] and a judge cannot lift a candidate
 * the local ranker found nothing for.
 */
export function judgedScore(local: number, j: CandidateJudgement): number {
  const s = 0.5 * local + 0.5 * Math.min(1, Math.max(0, j.fit)) * (local > 0 ? 1 : 0);
  return j.constraintBroken ? s / 3 : s;
}
