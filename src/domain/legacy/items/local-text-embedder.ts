import { fnv1a } from '../../matching/feature-hash';
import { STOPWORDS } from '../../matching/text.rules';
import { normalize } from '../../matching/vectors';
import { stem } from '../../web/passage-filter.rules';
import type { TextEmbedder } from '../ports';

/** The local embedder reads at most this much of a document. */
const LOCAL_TEXT_MAX = 200_000;

/** The content words of a text, stemmed, in order. */
export function contentTerms(text: string): string[] {
  const words = text.slice(0, LOCAL_TEXT_MAX).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => (w.length >= 3 || /\d/.test(w)) && !STOPWORDS.has(w)).map(stem);
}

/**
 * The local default: the hashing trick over stemmed content words and word pairs, with
 * sub-linear term frequency (1 + ln tf), so a long page is not just its most repeated word.
 * Deterministic, no model, the same vector on every machine.
 */
export class LocalTextEmbedder implements TextEmbedder {
  readonly modelName: string;

  constructor(readonly dimensions = 256) {
    this.modelName = `local-terms-v1-${dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.vectorOf(t));
  }

  vectorOf(text: string): Float32Array {
    const terms = contentTerms(text);
    const counts = new Map<string, number>();
    const add = (feature: string, w: number) => counts.set(feature, (counts.get(feature) ?? 0) + w);
    terms.forEach((t, i) => {
      add(`w:${t}`, 1);
      if (i > 0) add(`b:${terms[i - 1]} ${t}`, 0.5);
    });
    const v = new Float32Array(this.dimensions);
    for (const [feature, tf] of counts) {
      const sign = fnv1a(feature, 0x9747b28c) & 1 ? 1 : -1;
      v[fnv1a(feature) % this.dimensions] += sign * (1 + Math.log(tf));
    }
    return normalize(v);
  }
}
