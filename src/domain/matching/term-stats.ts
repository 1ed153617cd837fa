import type { IntentReading } from '../reading/intent-reader';
import type { Idf } from './pair-score';

/** Document frequencies of stems over a set of intents (a stem counts once per intent). */
export interface TermCounts {
  docs: number;
  df: Map<string, number>;
}

/** Each reading's distinct stems, made once: discover counts the same kept readings on every call. */
const stemsOf = new WeakMap<IntentReading, string[]>();

function distinctStems(r: IntentReading): string[] {
  let stems = stemsOf.get(r);
  if (!stems) {
    stems = [...new Set([...Object.keys(r.seek), ...Object.keys(r.give)])];
    stemsOf.set(r, stems);
  }
  return stems;
}

export function countTerms(readings: Iterable<IntentReading>): TermCounts {
  const df = new Map<string, number>();
  let docs = 0;
  for (const r of readings) {
    docs += 1;
    for (const t of distinctStems(r)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return { docs, df };
}

/**
 * Intents a word is assumed absent from, beyond those counted: in a small network a word three
 * of five intents use is still informative, and the prior fades as the network grows.
 */
export const PRIOR_DOCS = 20;

/** BM25's inverse document frequency over the counted intents plus the prior: never negative. */
export function idfOf(counts: TermCounts): Idf {
  const n = Math.max(1, counts.docs) + PRIOR_DOCS;
  const cache = new Map<string, number>();
  return (t) => {
    let v = cache.get(t);
    if (v === undefined) {
      const d = counts.df.get(t) ?? 0;
      v = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      cache.set(t, v);
    }
    return v;
  };
}

export function idfFrom(readings: Iterable<IntentReading>): Idf {
  return idfOf(countTerms(readings));
}
