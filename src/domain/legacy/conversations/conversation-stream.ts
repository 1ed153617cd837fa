import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventNotifier } from '../../events/notifier';
import { publishTopic } from '../../events/topics';

/** A frame of GET …/updates (decisions.md section 5): `{ channel, data, id }`. */
export interface ConversationFrame {
  channel: 'chunk' | 'end' | 'update';
  data: unknown;
  /** The message the frame is about (the conversation's id for conversation-wide updates). */
  id: string;
}

/**
 * What writers publish on a conversation's topic. Notices stay small (Postgres caps NOTIFY
 * payloads): messages travel by id and each stream reads their current state.
 */
export type ConversationNotice =
  | { kind: 'chunk'; messageId: string; text: string }
  | { kind: 'end'; messageId: string; error?: string }
  | { kind: 'messages'; type: 'message.created' | 'message.updated'; messageIds: string[] }
  | { kind: 'deleted'; messageIds: string[] }
  | { kind: 'conversation'; type: 'conversation.updated' | 'conversation.deleted' };

export const conversationTopic = (conversationId: string) => `private-conversation:${conversationId}`;

/** Inside a transaction the notice goes out at commit, so a stream never reads a row that is not there yet. */
export function notifyConversation(em: EntityManager, conversationId: string, notice: ConversationNotice): Promise<void> {
  return publishTopic(em, conversationTopic(conversationId), notice);
}

/** Notices a stream may hold unread before it is cut off (it can reconnect and read the conversation). */
const MAX_QUEUED = 1000;

/**
 * The frames of one conversation as its notices arrive, on any instance. A plain iterator
 * rather than a generator, so `return()` (the client went away) ends it at once, even while it
 * waits for the next notice.
 */
export class ConversationFrames implements AsyncIterableIterator<ConversationFrame> {
  private readonly notices: ConversationNotice[] = [];
  private readonly ready: ConversationFrame[] = [];
  private waiting: ((r: IteratorResult<ConversationFrame>) => void) | null = null;
  private done = false;
  private readonly off: () => void;
  private pumping = false;

  constructor(
    notifier: EventNotifier,
    conversationId: string,
    private readonly toFrames: (notice: ConversationNotice) => Promise<ConversationFrame[]>,
  ) {
    this.off = notifier.onTopic(conversationTopic(conversationId), (data) => {
      if (this.done) return;
      if (this.notices.length >= MAX_QUEUED) return void this.finish();
      this.notices.push(data as ConversationNotice);
      void this.pump();
    });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ConversationFrame> {
    return this;
  }

  /** Turns notices into frames one at a time, in arrival order. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.notices.length && !this.done) {
        const notice = this.notices.shift()!;
        let frames: ConversationFrame[] = [];
        try {
          frames = await this.toFrames(notice);
        } catch {
          // A frame that cannot be read (its message was deleted meanwhile) is skipped.
        }
        for (const f of frames) this.deliver(f);
        if (notice.kind === 'conversation' && notice.type === 'conversation.deleted') this.finish();
      }
    } finally {
      this.pumping = false;
    }
  }

  private deliver(frame: ConversationFrame): void {
    if (this.done) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: frame, done: false });
    } else if (this.ready.length >= MAX_QUEUED) {
      // A reader this far behind is cut off rather than held in memory.
      this.finish();
    } else {
      this.ready.push(frame);
    }
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.off();
    this.notices.length = 0;
    if (this.waiting && !this.ready.length) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<ConversationFrame>> {
    const frame = this.ready.shift();
    if (frame) return Promise.resolve({ value: frame, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<ConversationFrame>> {
    this.ready.length = 0;
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }
}
