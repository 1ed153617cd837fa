import type { Facets } from './facets.rules';

/**
 * Turns an intent into vectors for the index. Both vectors are laid out in three blocks:
 * the document vector (stored) is [offers | seeks | topic] and the query vector is
 * [seeks | offers | topic], so their inner product adds "what I seek meets what you offer",
 * "what I offer meets what you seek" and the shared topic: a complementary counterpart scores
 * higher than a look-alike on the same side.
 */
export interface Embedder {
  /** Stored with each vector; vectors of another embedder are re-made. */
  readonly id: string;
  /** Document vectors, one per item. */
  embed(items: Array<{ text: string; facets: Facets }>): Promise<Float32Array[]>;
  /** The query vector of a document vector (no provider call). */
  queryVector(doc: Float32Array): Float32Array;
}

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
