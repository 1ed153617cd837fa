import http from 'node:http';

export interface SseMessage {
  id: string | null;
  data: any;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body when the answer was not a stream (a refusal). */
  body: any;
  messages: SseMessage[];
  comments: string[];
  /** Resolves when at least `n` messages arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<SseMessage[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
  req: http.ClientRequest;
  res: http.IncomingMessage | null;
}

/** A minimal EventSource for tests: real HTTP, parses `id:`, `data:` and comment lines. */
export function openStream(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: null,
        messages: [],
        comments: [],
        waitFor: () => Promise.resolve([]),
        ended: new Promise((r) => {
          res.on('close', () => r());
          res.on('end', () => r());
        }),
        close: () => req.destroy(),
        req,
        res,
      };
      if (!String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          stream.body = text ? JSON.parse(text) : null;
          resolve(stream);
        });
        return;
      }
      const waiters: Array<() => void> = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          let id: string | null = null;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
            else if (line.startsWith('id:')) id = line.slice(3).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trim());
          }
          if (data.length) stream.messages.push({ id, data: JSON.parse(data.join('\n')) });
        }
        waiters.splice(0).forEach((w) => w());
      });
      res.on('close', () => waiters.splice(0).forEach((w) => w()));
      stream.waitFor = (n, timeoutMs = 5000) =>
        new Promise((ok, fail) => {
          const deadline = Date.now() + timeoutMs;
          const check = () => {
            if (stream.messages.length >= n) return ok(stream.messages);
            if (Date.now() > deadline || res.destroyed || res.complete) {
              return fail(new Error(`expected ${n} messages, got ${stream.messages.length}: ${JSON.stringify(stream.messages.map((m) => m.data.type))}`));
            }
            waiters.push(check);
            setTimeout(check, Math.min(100, Math.max(1, deadline - Date.now())));
          };
          check();
        });
      resolve(stream);
    });
  });
}
