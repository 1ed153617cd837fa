import { ProviderError, type ChatMessage } from '../domain/shared/ports';
import { cutText } from '../domain/shared/text-cut';

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
  /** Retries of a call answered 429 or 5xx, or not answered at all (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /** How the client waits between attempts (tests record the waits instead of sleeping). */
  sleep?: (ms: number) => Promise<void>;
}

/** The first back-off; doubled on each retry, with jitter. */
export const RETRY_BASE_MS = 500;
/** No single wait is longer: a provider asking for more (Retry-After) fails the call instead. */
export const RETRY_MAX_WAIT_MS = 20_000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How long to wait before retry number `attempt` (0-based): the provider's Retry-After (seconds
 * or an HTTP date) when it gives one, else exponential back-off with jitter. Null when the
 * provider asks for longer than RETRY_MAX_WAIT_MS.
 */
export function retryDelayMs(retryAfter: string | null, attempt: number, random = Math.random): number | null {
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
    if (Number.isFinite(ms)) return ms > RETRY_MAX_WAIT_MS ? null : Math.max(0, Math.ceil(ms));
  }
  const ceiling = Math.min(RETRY_MAX_WAIT_MS, RETRY_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const retryable = (status: number) => status === 429 || status >= 500;

/**
 * A small client for OpenAI-compatible servers (OpenAI, OpenRouter, Ollama, vLLM): chat
 * completions and embeddings over fetch. Every failure becomes a ProviderError, so callers
 * can answer "try again" without knowing the transport.
 */
export class OpenAIClient {
  private readonly maxRetries: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: OpenAIClientOptions) {
    this.maxRetries = opts.maxRetries ?? 3;
    this.sleep = opts.sleep ?? realSleep;
  }

  /**
   * One request, retried with back-off while the provider answers 429 or 5xx or cannot be
   * reached, at most `maxRetries` times; a timeout is not retried (the caller's deadline is
   * spent). The last answer is returned whatever its status, so the caller words the failure.
   */
  private async send(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        const e = err as Error;
        if (e.name === 'TimeoutError' || e.name === 'AbortError' || attempt >= this.maxRetries) throw new ProviderError(`provider unreachable: ${e.message}`);
        await this.sleep(retryDelayMs(null, attempt)!);
        continue;
      }
      if (res.ok || !retryable(res.status) || attempt >= this.maxRetries) return res;
      const wait = retryDelayMs(res.headers.get('retry-after'), attempt);
      if (wait === null) {
        await res.body?.cancel().catch(() => undefined);
        throw new ProviderError(`provider answered ${res.status} and asks to retry after ${res.headers.get('retry-after')}: longer than this call waits`, res.status);
      }
      await res.body?.cancel().catch(() => undefined);
      await this.sleep(wait);
    }
  }

  get chatModel(): string {
    return this.opts.chatModel;
  }

  get embeddingModel(): string {
    return this.opts.embeddingModel;
  }

  private async post<T>(path: string, body: unknown, timeoutMs?: number): Promise<T> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}${path}`;
    const res = await this.send(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
      },
      timeoutMs ?? this.opts.timeoutMs ?? 30_000,
    );
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
    // Retried only until the stream starts: pieces already yielded cannot be taken back.
    const res = await this.send(
      url,
      {
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
      },
      o.timeoutMs ?? this.opts.timeoutMs ?? 120_000,
    );
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
