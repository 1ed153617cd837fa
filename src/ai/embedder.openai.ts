import type { Facets } from '../domain/matching/facets.rules';
import type { Embedder } from '../domain/matching/ports';
import { normalize, swapSides } from '../domain/matching/vectors';
import type { OpenAIClient } from './openai-client';

/** The words of one side of an intent as the general reader found them, labelled for the model. */
function sideText(label: string, words: string): string {
  return words.trim() ? `${label}: ${words.trim()}` : '';
}

/**
 * Embeddings from an OpenAI-compatible endpoint. Each intent costs three inputs in one
 * request: what it offers, what it seeks (the words the general reader put on each side) and its full text, laid
 * out in the same three blocks as the local embedder. An empty side is a zero block.
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;

  constructor(private readonly client: OpenAIClient) {
    this.id = `openai:${client.embeddingModel}`;
  }

  queryVector(doc: Float32Array): Float32Array {
    return swapSides(doc, doc.length / 3);
  }

  async embed(items: Array<{ text: string; facets: Facets }>): Promise<Float32Array[]> {
    const inputs: string[] = [];
    const slots: Array<[number | null, number | null, number]> = [];
    for (const { text, facets } of items) {
      const offer = sideText('Offers', facets.reading.text.give);
      const seek = sideText('Seeks', facets.reading.text.seek);
      const o = offer ? inputs.push(offer) - 1 : null;
      const s = seek ? inputs.push(seek) - 1 : null;
      const full = inputs.push(text) - 1;
      slots.push([o, s, full]);
    }
    const vectors = await this.client.embed(inputs);
    const dims = vectors[0]?.length ?? 0;
    return slots.map(([o, s, full]) => {
      const out = new Float32Array(dims * 2 + dims);
      const put = (index: number | null, offset: number, scale: number) => {
        if (index === null) return;
        const v = normalize(Float32Array.from(vectors[index]));
        for (let i = 0; i < dims; i++) out[offset + i] = v[i] * scale;
      };
      put(o, 0, 1);
      put(s, dims, 1);
      put(full, 2 * dims, 0.6);
      return normalize(out);
    });
  }
}
