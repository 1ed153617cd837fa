import { placeCompatibility } from './geo.rules';
import type { IntentReading } from '../reading/intent-reader';
import type { ConstraintDim } from '../reading/constraints';

/**
 * Graded penalties for constraints both sides state and that disagree. Each is a factor on the
 * score; they multiply. Unknowns cost nothing: a side that does not state a place is not far.
 */
export const PENALTY = {
  /** Scaled by how far apart the places are: placeCompatibility 1 costs nothing, 0.2 costs most. */
  place: 0.5,
  lang: 0.5,
  mode: 0.6,
  stage: 0.6,
  employment: 0.8,
  /** Weekdays against weekends, mornings against evenings: people can often move, so mildly. */
  daytype: 0.7,
  daypart: 0.7,
  /** One side refuses what the other gives or seeks. */
  refused: 0.4,
};

function disjoint(a: string[] | undefined, b: string[] | undefined): boolean {
  if (!a?.length || !b?.length) return false;
  return !a.some((x) => b.includes(x));
}

/** `reasons`, when given, collects why the factor is below 1 (for explanations; ranking alone passes none). */
export function constraintPenalty(q: IntentReading, c: IntentReading, reasons?: string[]): number {
  let f = 1;
  if (q.places.length && c.places.length) {
    let best = 0;
    for (const a of q.places) for (const b of c.places) best = Math.max(best, placeCompatibility(a, b));
    if (best < 1) {
      const k = 1 - PENALTY.place * ((1 - best) / 0.8);
      f *= Math.max(1 - PENALTY.place, k);
      reasons?.push(`place:${best.toFixed(2)}`);
    }
  }
  for (const dim of ['lang', 'mode', 'stage', 'employment', 'daytype', 'daypart'] as ConstraintDim[]) {
    const a = q.constraints.values[dim];
    const b = c.constraints.values[dim];
    if (disjoint(a, b)) {
      f *= PENALTY[dim];
      reasons?.push(dim);
    }
    const refusedByQ = q.constraints.refused[dim]?.some((v) => b?.includes(v));
    const refusedByC = c.constraints.refused[dim]?.some((v) => a?.includes(v));
    if ((refusedByQ || refusedByC)) {
      f *= PENALTY.refused;
      reasons?.push(`refused-${dim}`);
    }
  }
  // A refusal meets what the other side gives ("no agencies" against an agency) and what it
  // seeks ("we never repair watches" against someone with a broken watch).
  const refuses = (x: IntentReading, y: IntentReading) => x.refuse.some((t) => y.give[t] !== undefined || y.seek[t] !== undefined);
  if ((refuses(q, c) || refuses(c, q))) {
    f *= PENALTY.refused;
    reasons?.push('refused');
  }
  return f;
}
