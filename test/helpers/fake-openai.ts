import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string };
  stream?: boolean;
}

/**
 * A local server speaking the OpenAI wire protocol for /chat/completions and /embeddings.
 * Tests script its answers: `chat` decides the reply per request (or throws to answer 500).
 */
/** A scripted failure (or any non-streamed answer): status, body and headers such as Retry-After. */
export interface FakeReply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface FakeOpenAI {
  url: string;
  requests: Array<{ path: string; body: any }>;
  chat: (req: ChatRequest) => string | FakeReply;
  embed: (input: string) => number[];
  /** Answers /embeddings instead of `embed` when it returns a reply (scripted outages). */
  embedReply: (inputs: string[]) => FakeReply | null;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = {
    url: '',
    requests: [],
    chat: () => 'ok',
    embedReply: () => null,
    embed: (input) => {
      // A deterministic 8-dimensional vector from the text, enough for protocol tests.
      const v = new Array(8).fill(0);
      for (let i = 0; i < input.length; i++) v[i % 8] += input.charCodeAt(i) / 1000;
      return v;
    },
    close: async () => undefined,
  };
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: any = null;
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400).end('{"error":"bad json"}');
      return;
    }
    const path = (req.url ?? '').replace(/^\/v1/, '');
    fake.requests.push({ path, body });
    res.setHeader('content-type', 'application/json');
    if (path === '/chat/completions') {
      let out: string | FakeReply;
      try {
        out = fake.chat(body);
      } catch (err) {
        res.writeHead(500).end(JSON.stringify({ error: { message: (err as Error).message } }));
        return;
      }
      if (typeof out !== 'string') {
        res.writeHead(out.status, out.headers ?? {}).end(out.body);
        return;
      }
      if (body.stream === true) {
        // Streamed as OpenAI does: one SSE event per delta (here, per word), then [DONE].
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const piece of out.match(/\S+\s*|\s+/g) ?? []) {
          res.write(`data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', model: body.model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
        }
        res.end('data: [DONE]\n\n');
        return;
      }
      res.end(JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion', model: body.model, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: out } }] }));
      return;
    }
    if (path === '/embeddings') {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const scripted = fake.embedReply(inputs);
      if (scripted) {
        res.writeHead(scripted.status, scripted.headers ?? {}).end(scripted.body);
        return;
      }
      res.end(JSON.stringify({ object: 'list', model: body.model, data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: fake.embed(t) })) }));
      return;
    }
    res.writeHead(404).end('{"error":"not found"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise<void>((r) => server.close(() => r()));
  return fake;
}
