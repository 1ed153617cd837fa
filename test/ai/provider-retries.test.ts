import { createServer } from 'node:net';
import { loadConfig } from '../../src/config';
import { OpenAIClient, RETRY_MAX_WAIT_MS, retryDelayMs } from '../../src/ai/openai-client';
import { ProviderError } from '../../src/domain/shared/ports';
import { providerFromConfig } from '../../src/ai/provider';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai';

/** Provider calls are retried on 429 and 5xx with back-off, honouring Retry-After, a bounded number of times. */
describe('provider retries', () => {
  let fake: FakeOpenAI;
  let waits: number[];
  const client = (maxRetries = 3, baseUrl = fake.url) =>
    new OpenAIClient({ baseUrl, chatModel: 'm', embeddingModel: 'e', maxRetries, sleep: async (ms) => void waits.push(ms) });
  /** Answers with `replies` in turn, then `answer` forever. */
  const script = (replies: Array<{ status: number; body?: string; headers?: Record<string, string> }>, answer = 'ok') => {
    const queue = [...replies];
    return () => {
      const next = queue.shift();
      return next ? { status: next.status, body: next.body ?? '{"error":{"message":"busy"}}', headers: next.headers } : answer;
    };
  };
  const chatCalls = () => fake.requests.filter((r) => r.path === '/chat/completions').length;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  beforeEach(() => {
    waits = [];
    fake.requests.length = 0;
    fake.chat = () => 'ok';
    fake.embedReply = () => null;
  });
  afterAll(() => fake.close());

  it('retries 5xx with growing back-off and returns the answer that comes', async () => {
    fake.chat = script([{ status: 503 }, { status: 502 }, { status: 500 }]);
    expect(await client().chat([{ role: 'user', content: 'hi' }])).toBe('ok');
    expect(chatCalls()).toBe(4);
    expect(waits).toHaveLength(3);
    // Half to all of 0.5 s, 1 s, 2 s.
    expect(waits[0]).toBeGreaterThanOrEqual(250);
    expect(waits[0]).toBeLessThanOrEqual(500);
    expect(waits[1]).toBeGreaterThanOrEqual(500);
    expect(waits[1]).toBeLessThanOrEqual(1000);
    expect(waits[2]).toBeGreaterThanOrEqual(1000);
    expect(waits[2]).toBeLessThanOrEqual(2000);
  });

  it('waits what Retry-After says on 429, in seconds or as a date', async () => {
    const soon = new Date(Date.now() + 4000).toUTCString();
    fake.chat = script([
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 429, headers: { 'retry-after': soon } },
    ]);
    expect(await client().chat([{ role: 'user', content: 'hi' }])).toBe('ok');
    expect(waits[0]).toBe(2000);
    // An HTTP date has whole seconds: between 2 and 4 s from now.
    expect(waits[1]).toBeGreaterThan(2000);
    expect(waits[1]).toBeLessThanOrEqual(4000);
  });

  it('gives up after the last retry with the provider status', async () => {
    fake.chat = () => ({ status: 429, body: '{"error":{"message":"rate limited"}}', headers: { 'retry-after': '1' } });
    const err = await client(2)
      .chat([{ role: 'user', content: 'hi' }])
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe('provider answered 429: {"error":{"message":"rate limited"}}');
    expect(err.status).toBe(429);
    expect(chatCalls()).toBe(3);
    expect(waits).toEqual([1000, 1000]);
  });

  it('does not wait longer than it may: a Retry-After beyond the cap fails the call at once', async () => {
    fake.chat = () => ({ status: 503, body: 'down', headers: { 'retry-after': String(RETRY_MAX_WAIT_MS / 1000 + 100) } });
    const err = await client()
      .chat([{ role: 'user', content: 'hi' }])
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(`provider answered 503 and asks to retry after ${RETRY_MAX_WAIT_MS / 1000 + 100}: longer than this call waits`);
    expect(chatCalls()).toBe(1);
    expect(waits).toEqual([]);
  });

  it('does not retry what a retry cannot fix (4xx other than 429)', async () => {
    fake.chat = () => ({ status: 400, body: '{"error":{"message":"bad model"}}' });
    await expect(client().chat([{ role: 'user', content: 'hi' }])).rejects.toThrow('provider answered 400: {"error":{"message":"bad model"}}');
    expect(chatCalls()).toBe(1);
    expect(waits).toEqual([]);
  });

  it('retries embeddings and a streamed completion before it starts', async () => {
    const outages = [{ status: 502, body: 'bad gateway' }];
    fake.embedReply = () => outages.shift() ?? null;
    const vectors = await client().embed(['a', 'b']);
    expect(vectors).toHaveLength(2);
    expect(fake.requests.filter((r) => r.path === '/embeddings')).toHaveLength(2);

    fake.chat = script([{ status: 503, headers: { 'retry-after': '0' } }], 'streamed answer here');
    const pieces: string[] = [];
    for await (const p of client().chatStream([{ role: 'user', content: 'hi' }])) pieces.push(p);
    expect(pieces.join('')).toBe('streamed answer here');
    expect(waits).toContain(0);
  });

  it('retries a provider that cannot be reached, then says so', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer();
      srv.listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const err = await client(2, `http://127.0.0.1:${port}/v1`)
      .chat([{ role: 'user', content: 'hi' }])
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toMatch(/^provider unreachable: /);
    expect(waits).toHaveLength(2);
  });

  it('reads OPENAI_MAX_RETRIES (default 3)', async () => {
    fake.chat = () => ({ status: 500, body: 'boom', headers: { 'retry-after': '0' } });
    const base = { DATA_DIR: '/tmp/im-config-test', SESSION_SECRET: 'x'.repeat(40), OPENAI_BASE_URL: fake.url };
    expect(loadConfig(base).OPENAI_MAX_RETRIES).toBe(3);
    await expect(providerFromConfig(loadConfig({ ...base, OPENAI_MAX_RETRIES: '1' }))!.chat([{ role: 'user', content: 'hi' }])).rejects.toThrow('provider answered 500: boom');
    expect(chatCalls()).toBe(2);
  });

  it('computes back-off without a Retry-After, and reads a blank one as none', () => {
    expect(retryDelayMs(null, 0, () => 0)).toBe(250);
    expect(retryDelayMs(null, 0, () => 1)).toBe(500);
    expect(retryDelayMs('', 3, () => 1)).toBe(4000);
    expect(retryDelayMs(null, 10, () => 1)).toBe(RETRY_MAX_WAIT_MS);
    expect(retryDelayMs('not a date', 1, () => 0)).toBe(500);
  });
});
