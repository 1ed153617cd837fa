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
  /** Resolves with the data of the first message (from the start) that matches. */
  waitUntil(match: (data: any) => boolean, timeoutMs?: number): Promise<any>;
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
        waitFor: () => Promise.reject(new Error('not a stream')),
        waitUntil: () => Promise.reject(new Error('not a stream')),
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
      // Each pending waitFor: returns true once it settled.
      const watchers = new Set<() => boolean>();
      const notify = () => watchers.forEach((w) => w() && watchers.delete(w));
      let buffer = '';
      let closed = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const taken = takeSseBlocks(buffer + chunk);
        buffer = taken.rest;
        for (const b of taken.blocks) {
          stream.comments.push(...b.comments);
          if (b.data.length) stream.messages.push({ id: b.id, data: JSON.parse(b.data.join('\n')) });
        }
        notify();
      });
      res.on('close', () => {
        closed = true;
        notify();
      });
      /** Settles with `found()` once it is defined, or fails when the stream closes or time runs out. */
      const until = <T>(found: () => T | undefined, failure: () => Error, timeoutMs: number) =>
        new Promise<T>((ok, fail) => {
          const timer = setTimeout(() => {
            watchers.delete(check);
            fail(failure());
          }, timeoutMs);
          const check = () => {
            const value = found();
            if (value !== undefined) ok(value);
            else if (closed) fail(failure());
            else return false;
            clearTimeout(timer);
            return true;
          };
          if (!check()) watchers.add(check);
        });
      stream.waitFor = (n, timeoutMs = 5000) =>
        until(
          () => (stream.messages.length >= n ? stream.messages : undefined),
          () => new Error(`expected ${n} messages, got ${stream.messages.length}: ${JSON.stringify(stream.messages.slice(-5).map((m) => m.data.type))}`),
          timeoutMs,
        );
      stream.waitUntil = (match, timeoutMs = 10_000) =>
        until(
          () => stream.messages.find((m) => match(m.data))?.data,
          () => new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(stream.messages.map((m) => m.data))}`),
          timeoutMs,
        );
      resolve(stream);
    });
  });
}

/** The complete server-sent-event blocks at the start of `buffer`, and what is left after them. */
export function takeSseBlocks(buffer: string): { blocks: Array<{ id: string | null; data: string[]; comments: string[] }>; rest: string } {
  const blocks: Array<{ id: string | null; data: string[]; comments: string[] }> = [];
  let at: number;
  while ((at = buffer.indexOf('\n\n')) >= 0) {
    const block = { id: null as string | null, data: [] as string[], comments: [] as string[] };
    for (const line of buffer.slice(0, at).split('\n')) {
      if (line.startsWith(':')) block.comments.push(line.slice(1).trim());
      else if (line.startsWith('id:')) block.id = line.slice(3).trim();
      else if (line.startsWith('data:')) block.data.push(line.slice(5).trim());
    }
    blocks.push(block);
    buffer = buffer.slice(at + 2);
  }
  return { blocks, rest: buffer };
}
