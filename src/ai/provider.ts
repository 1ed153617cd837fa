import type { Config } from '../config';
import { OpenAIClient } from './openai-client';

/** The configured OpenAI-compatible provider, or null when the local implementations serve. */
export function providerFromConfig(config: Config): OpenAIClient | null {
  if (!config.OPENAI_BASE_URL) return null;
  return new OpenAIClient({
    baseUrl: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    chatModel: config.OPENAI_MODEL,
    embeddingModel: config.OPENAI_EMBEDDING_MODEL,
    maxRetries: config.OPENAI_MAX_RETRIES,
  });
}
