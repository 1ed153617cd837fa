import type { IntentReading } from '../reading/intent-reader';

/**
 * Candidates' readings kept in process by the hash of the text they were read from
 * (`intent_vectors.text_hash`: embedder, facets version and text), so discover's candidate
 * statement sends a reading only for texts this instance has not seen. A hash names one text
 * read by one version of the reader, so a kept reading is never stale: an edited intent has
 * another hash, and its new reading travels on the next request. Bounded: past `max` the
 * least recently used go.
 */
export class ReadingsByHash {
  private readonly readings = new Map<string, IntentReading>();
  /** The hash each intent last had: which hashes to name as known for a shortlist. */
  private readonly hashOf = new Map<string, string>();

  constructor(private readonly max: number) {}

  /** The readings this instance holds for these intents' last seen texts. */
  known(intentIds: readonly string[]): Map<string, IntentReading> {
    const out = new Map<string, IntentReading>();
    for (const id of intentIds) {
      const hash = this.hashOf.get(id);
      if (hash === undefined || out.has(hash)) continue;
      const reading = this.readings.get(hash);
      if (!reading) continue;
      // Used again: to the back of the eviction order.
      this.readings.delete(hash);
      this.readings.set(hash, reading);
      out.set(hash, reading);
    }
    return out;
  }

  /** Records what an intent's text hash is now, and its reading when one was read. */
  remember(intentId: string, hash: string, reading?: IntentReading): void {
    this.hashOf.delete(intentId);
    this.hashOf.set(intentId, hash);
    if (this.hashOf.size > this.max) this.hashOf.delete(this.hashOf.keys().next().value!);
    if (!reading || this.readings.has(hash)) return;
    this.readings.set(hash, reading);
    if (this.readings.size > this.max) this.readings.delete(this.readings.keys().next().value!);
  }

  get size(): number {
    return this.readings.size;
  }
}
