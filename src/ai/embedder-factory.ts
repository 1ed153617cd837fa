import type { Embedder } from './embedder';
import { LocalEmbedder } from './embedder.local';
import { OpenAIEmbedder } from './embedder.openai';
import type { OpenAIClient } from './openai-client';

/** The provider's embeddings when one is configured, else the local embedder. */
export function embedderFromProvider(provider: OpenAIClient | null): Embedder {
  return provider ? new OpenAIEmbedder(provider) : new LocalEmbedder();
}
