import type { Frame } from './event-log';

/** The first frame of every stream (core-api.md, Events 1). */
export interface HandshakeFrame {
  type: 'connected';
  at: string;
  /**
   * Not part of the frame's JSON: the cursor the stream starts from, written as the handshake's
   * SSE id, so a client that drops before any frame arrives resumes from where it connected
   * instead of from whatever is latest when it reconnects. Absent on a consumer's stream, whose
   * offset the server keeps.
   */
  resumeFrom?: string;
}

export type StreamFrame = Frame | HandshakeFrame;

/** Where a feed's frames come from: frames after a cursor, or a consumer's claims. */
export interface FrameSource {
  /** The next frames to hand out; empty means "wait for a wake". */
  take(): Promise<Frame[]>;
  /** The reader asked for more after `frame`: it finished taking that frame. */
  delivered(frame: Frame): Promise<void>;
  /** The feed ended; release whatever was taken and not delivered. Safe to call twice. */
  close(): Promise<void>;
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * A user's stream as an async iterator: the handshake, then frames from the source, waiting
 * for a wake when it has none. It pulls: nothing is read until the reader asks for the next
 * frame, and asking again is what tells the source the previous frame was delivered. `return()`
 * ends it at once, even while it waits (an async generator could not be ended mid-wait).
 */
export class FrameFeed implements AsyncIterableIterator<StreamFrame> {
  private queue: Frame[] = [];
  private handedOut: Frame | null = null;
  private greeted = false;
  private closed = false;
  private wake: (() => void) | null = null;
  /** A poke arrived since the last read began: look again instead of waiting. */
  private poked = false;
  private readonly closeListeners: Array<() => void> = [];

  constructor(
    private readonly source: FrameSource,
    /** Registers a one-time wake for the next frame; returns its cancel. */
    private readonly waitForFrame: (wake: () => void) => () => void,
    /** The cursor a resuming client names to continue from the handshake (none for a consumer). */
    private readonly resumeFrom: string | null = null,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Makes the feed look again (frames became available without a new commit). A poke that
   * arrives while the feed is reading is kept, so the read that missed the frames is followed
   * by another rather than a wait.
   */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  onClose(fn: () => void): void {
    this.closeListeners.push(fn);
  }

  async next(): Promise<IteratorResult<StreamFrame, undefined>> {
    if (this.closed) return DONE;
    if (!this.greeted) {
      this.greeted = true;
      const hello: HandshakeFrame = { type: 'connected', at: new Date().toISOString() };
      if (this.resumeFrom !== null) hello.resumeFrom = this.resumeFrom;
      return { value: hello, done: false };
    }
    if (this.handedOut) {
      const f = this.handedOut;
      this.handedOut = null;
      await this.source.delivered(f);
    }
    while (!this.closed) {
      const f = this.queue.shift();
      if (f) {
        this.handedOut = f;
        return { value: f, done: false };
      }
      // Registered before reading, so a frame committing during the read still wakes us.
      let signaled = false;
      const cancel = this.waitForFrame(() => {
        signaled = true;
        this.wake?.();
      });
      this.poked = false;
      try {
        this.queue = await this.source.take();
        if (this.closed) {
          // Ended while reading: what was just taken goes back.
          if (this.queue.length) await this.source.close();
          break;
        }
        if (!this.queue.length && !signaled && !this.poked) await new Promise<void>((resolve) => (this.wake = resolve));
      } finally {
        cancel();
        this.wake = null;
      }
    }
    return DONE;
  }

  async return(): Promise<IteratorResult<StreamFrame, undefined>> {
    if (!this.closed) {
      this.closed = true;
      this.wake?.();
      this.queue = [];
      await this.source.close();
      for (const fn of this.closeListeners.splice(0)) fn();
    }
    return DONE;
  }

  async throw(err?: unknown): Promise<IteratorResult<StreamFrame, undefined>> {
    await this.return();
    throw err;
  }
}
