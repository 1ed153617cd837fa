import { cutText } from '../domain/shared/text-cut';

/**
 * A small client for OpenAI-compatible servers (OpenAI, OpenRouter, Ollama, vLLM): chat
 * completions and embeddings over fetch. Every failure becomes a ProviderError, so callers
 * can answer "try again" without knowing the transport.
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

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  temperature?: number;
  maxTokens?: number;
  /** Ask for a JSON object (response_format json_object). */
  json?: boolean;
  timeoutMs?: number;
}

export interface OpenAIClientOptions {
  baseUrl: string;
  apiKey?: string;
  chatModel: string;
  embeddingModel: string;
  timeoutMs?: number;
}

export class OpenAIClient {
  constructor(private readonly opts: OpenAIClientOptions) {}

  get chatModel(): string {
    return this.opts.chatModel;
  }

  get embeddingModel(): string {
    return this.opts.embeddingModel;
  }

  private async post<T>(path: string, body: unknown, timeoutMs?: number): Promise<T> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs ?? this.opts.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw new ProviderError(`provider unreachable: ${(err as Error).message}`);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) throw new ProviderError(`provider answered ${res.status}: ${cutText(text, 200)}`, res.status);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ProviderError('provider answered with something that is not JSON', res.status);
    }
  }

  /** One chat completion; returns the assistant's text. */
  async chat(messages: ChatMessage[], o: ChatOptions = {}): Promise<string> {
    const r = await this.post<{ choices?: Array<{ message?: { content?: string | null } }> }>(
      '/chat/completions',
      {
        model: this.opts.chatModel,
        messages,
        temperature: o.temperature ?? 0.2,
        ...(o.maxTokens ? { max_tokens: o.maxTokens } : {}),
        ...(o.json ? { response_format: { type: 'json_object' } } : {}),
      },
      o.timeoutMs,
    );
    const content = r.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ProviderError('provider answer has no message content');
    return content;
  }

  /**
   * One chat completion streamed (`stream: true`): yields the text as the server sends it.
   * A failure before or during the stream is a ProviderError.
   */
  async *chatStream(messages: ChatMessage[], o: ChatOptions = {}): AsyncGenerator<string> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.opts.chatModel,
          messages,
          stream: true,
          temperature: o.temperature ?? 0.2,
          ...(o.maxTokens ? { max_tokens: o.maxTokens } : {}),
        }),
        signal: AbortSignal.timeout(o.timeoutMs ?? this.opts.timeoutMs ?? 120_000),
      });
    } catch (err) {
      throw new ProviderError(`provider unreachable: ${(err as Error).message}`);
    }
    if (!res.ok || !res.body) {
      const text = await res.text().catch(() => '');
      throw new ProviderError(`provider answered ${res.status}: ${cutText(text, 200)}`, res.status);
    }
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).trim();
          if (data === '[DONE]') return;
          let event: { choices?: Array<{ delta?: { content?: string | null } }> };
          try {
            event = JSON.parse(data);
          } catch {
            throw new ProviderError('provider stream sent something that is not JSON');
          }
          const piece = event.choices?.[0]?.delta?.content;
          if (typeof piece === 'string' && piece) yield piece;
        }
      }
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      throw new ProviderError(`provider stream failed: ${(err as Error).message}`);
    }
  }

  /** A chat completion parsed as a JSON object. */
  async chatJson<T = Record<string, unknown>>(messages: ChatMessage[], o: ChatOptions = {}): Promise<T> {
    const text = await this.chat(messages, { ...o, json: true });
    const m = /\{[\s\S]*\}/.exec(text);
    try {
      return JSON.parse(m ? m[0] : text) as T;
    } catch {
      throw new ProviderError('provider answer is not a JSON object');
    }
  }

  async embed(inputs: string[]): Promise<number[][]> {
    if (inputs.length === 0) return [];
    const r = await this.post<{ data?: Array<{ index: number; embedding: number[] }> }>('/embeddings', {
      model: this.opts.embeddingModel,
      input: inputs,
    });
    const data = r.data;
    if (!Array.isArray(data) || data.length !== inputs.length) throw new ProviderError('provider returned the wrong number of embeddings');
    return [...data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
  }
}
