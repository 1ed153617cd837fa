import type { TextEmbedder } from '../domain/legacy/ports';
import { normalize } from '../domain/matching/vectors';
import type { OpenAIClient } from './openai-client';

/** Text sent to the provider per input; embedding models take a few thousand tokens. */
const PROVIDER_TEXT_MAX = 8000;

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
