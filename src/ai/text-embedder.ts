import { STOPWORDS } from '../domain/matching/text.rules';
import { stem } from '../domain/web/passage-filter.rules';
import { normalize } from './embedder';
import type { OpenAIClient } from './openai-client';
import { fnv1a } from './feature-hash';

/**
 * Turns plain text (an index item's document, a search query) into one vector for similarity
 * search. Unlike the intent embedder there are no sides: similar text, similar vector.
 */
export interface TextEmbedder {
  /** The model name stored with the vectors (an embedding's `modelName`). */
  readonly modelName: string;
  /** The length of its vectors when known before it makes one (the local model's is). */
  readonly dimensions?: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** Text sent to the provider per input; embedding models take a few thousand tokens. */
const PROVIDER_TEXT_MAX = 8000;
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

/** The provider's embedding model, one vector per text, normalized for inner-product search. */
export class ProviderTextEmbedder implements TextEmbedder {
  constructor(private readonly client: OpenAIClient) {}

  get modelName(): string {
    return this.client.embeddingModel;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const vectors = await this.client.embed(texts.map((t) => t.slice(0, PROVIDER_TEXT_MAX) || ' '));
    return vectors.map((v) => normalize(Float32Array.from(v)));
  }
}

export function textEmbedderFor(provider: OpenAIClient | null): TextEmbedder {
  return provider ? new ProviderTextEmbedder(provider) : new LocalTextEmbedder();
}
