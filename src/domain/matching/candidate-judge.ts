/**
 * The matching port for a model that reads the best candidates pairwise and judges each:
 * whether the two intents answer each other (reciprocity) and whether a constraint either
 * states is broken. Its adapter lives in src/ai; without a provider there is none, and the local
 * ranker's order stands. A judge that fails returns null, and the local order stands too.
 */
export interface CandidateJudgement {
  id: string;
  /** How well the two intents answer each other, in [0, 1]. */
  fit: number;
  /** A constraint either side states is broken (place, stage, language, remote, only X, no X). */
  constraintBroken: boolean;
}

export interface CandidateJudge {
  judge(query: string, candidates: Array<{ id: string; text: string }>): Promise<CandidateJudgement[] | null>;
}

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
