/**
 * What every model port shares. A provider adapter turns any failure of its model into a
 * ProviderError, so a service can fall back to its local answer (or answer "try again")
 * without knowing the transport.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** One message of a conversation as a chat model reads it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}
