import { request, type ClientRequest, type IncomingMessage } from 'node:http';

export interface SseFrame {
  channel: string;
  data: any;
  id: string;
}

export interface SseStream {
  status: number;
  /** The JSON body of a refusal (the stream never opened). */
  body: any;
  frames: SseFrame[];
  /** Comment lines received (": keepalive"). */
  comments: string[];
  /** Resolves with the first frame (from the start) that matches; rejects after `ms`. */
  waitFor(match: (f: SseFrame) => boolean, ms?: number): Promise<SseFrame>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens a server-sent-events stream and parses its `data:` frames as JSON. */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest;
    const frames: SseFrame[] = [];
    const comments: string[] = [];
    const waiters: Array<{ match: (f: SseFrame) => boolean; resolve: (f: SseFrame) => void }> = [];
    let endedResolve: () => void;
    const ended = new Promise<void>((r) => (endedResolve = r));
    req = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        let raw = '';
        res.on('data', (c) => (raw += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: raw ? JSON.parse(raw) : null, frames, comments, waitFor: () => Promise.reject(new Error('no stream')), ended: Promise.resolve(), close: () => undefined }));
        return;
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            if (!line.startsWith('data:')) continue;
            const frame = JSON.parse(line.slice(5).trim()) as SseFrame;
            frames.push(frame);
            for (const w of [...waiters]) {
              if (w.match(frame)) {
                waiters.splice(waiters.indexOf(w), 1);
                w.resolve(frame);
              }
            }
          }
        }
      });
      res.on('end', () => endedResolve());
      res.on('close', () => endedResolve());
      resolve({
        status: 200,
        body: null,
        frames,
        comments,
        ended,
        waitFor(match, ms = 10_000) {
          const found = frames.find(match);
          if (found) return Promise.resolve(found);
          return new Promise((res2, rej) => {
            const timer = setTimeout(() => rej(new Error(`no matching frame in ${ms} ms; got ${JSON.stringify(frames)}`)), ms);
            waiters.push({ match, resolve: (f) => (clearTimeout(timer), res2(f)) });
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}
