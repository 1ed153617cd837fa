import { openStream } from '../helpers/sse-client';

/** A frame of a private conversation's `/updates` stream (decisions.md section 5). */
export interface SseFrame {
  channel: string;
  data: any;
  id: string;
}

export interface SseStream {
  status: number;
  /** The JSON body of a refusal (the stream never opened). */
  body: any;
  /** The `data:` frames received so far, parsed. */
  readonly frames: SseFrame[];
  /** Comment lines received (": keepalive"). */
  comments: string[];
  /** Resolves with the first frame (from the start) that matches; rejects after `ms`. */
  waitFor(match: (f: SseFrame) => boolean, ms?: number): Promise<SseFrame>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** The shared test SSE client, read as `/updates` frames. */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const stream = await openStream(url, url, headers);
  return {
    status: stream.status,
    body: stream.body,
    get frames() {
      return stream.messages.map((m) => m.data as SseFrame);
    },
    comments: stream.comments,
    waitFor: (match, ms) => stream.waitUntil(match, ms),
    ended: stream.ended,
    close: stream.close,
  };
}
