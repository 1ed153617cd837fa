import type { IntentReading } from '../reading/intent-reader';

/**
 * Candidates' readings kept in process by the hash of the text they were read from
 * (`intent_vectors.text_hash`: embedder, facets version and text), so discover ranks a shortlist
 * before it reads any row, and its candidate statement sends a reading only for texts this
 * instance has not seen (ADR 0118). The indexer fills it as it indexes. A hash names one text
 * read by one version of the reader, so a kept reading is never stale: an edited intent has
 * another hash, and its new reading travels on the next request. Bounded: past `max` the
 * least recently used go.
 */
export class ReadingsByHash {
  private readonly readings = new Map<string, IntentReading>();
  /** The hash each intent last had: a hint for hits the index hands back without one. */
  private readonly lastHash = new Map<string, string>();

  constructor(private readonly max: number) {}

  /**
   * The reading kept for this text hash. Once the bound is reached a reading used again goes to
   * the back of the eviction order; below it nothing is evicted, so the order is left alone (a
   * discover touches 300 readings, and moving each costs more than ranking it).
   */
  byHash(hash: string): IntentReading | undefined {
    const reading = this.readings.get(hash);
    if (!reading || this.readings.size < this.max) return reading;
    this.readings.delete(hash);
    this.readings.set(hash, reading);
    return reading;
  }

  /** The hash this instance last saw for an intent (a hint: discover checks it against the row). */
  hashOf(intentId: string): string | undefined {
    return this.lastHash.get(intentId);
  }

  /** Records what an intent's text hash is now, and its reading when one was read. */
  remember(intentId: string, hash: string, reading?: IntentReading): void {
    this.lastHash.delete(intentId);
    this.lastHash.set(intentId, hash);
    if (this.lastHash.size > this.max) this.lastHash.delete(this.lastHash.keys().next().value!);
    if (!reading || this.readings.has(hash)) return;
    this.readings.set(hash, reading);
    if (this.readings.size > this.max) this.readings.delete(this.readings.keys().next().value!);
  }

  get size(): number {
    return this.readings.size;
  }
}
