import type { EntityManager } from '@mikro-orm/postgresql';
import { claimNext, markDelivered, releaseClaims, wakeConsumer } from './consumer-claims.repository';
import type { Frame } from './event-log';
import type { FrameSource } from './frame-feed';
import type { FrameHub } from './frame-hub';

/** Frames read per pull when catching up. */
const PAGE = 100;

/** A plain stream: every frame after a cursor, in order (resume by Last-Event-ID or after). */
export class CursorSource implements FrameSource {
  constructor(
    private readonly hub: FrameHub,
    private readonly em: EntityManager,
    private readonly userId: string,
    private cursor: string,
    private readonly detach: () => void,
  ) {}

  async take(): Promise<Frame[]> {
    const frames = await this.hub.read(this.userId, this.cursor, PAGE, this.em);
    if (frames.length) this.cursor = frames[frames.length - 1].eventId;
    return frames;
  }

  async delivered(): Promise<void> {}

  async close(): Promise<void> {
    this.detach();
  }
}

/**
 * One connection of a consumer: it claims one frame at a time, so two connections of the same
 * consumer alternate over a burst, and a frame is marked delivered only when the reader pulls
 * again after it. When it ends, what it did not finish goes back to the consumer and every
 * connection of that consumer, on any instance, is woken to take it.
 */
export class ConsumerSource implements FrameSource {
  private released = false;
  private superseded = false;
  private marking: Promise<void> = Promise.resolve();

  constructor(
    private readonly em: EntityManager,
    private readonly userId: string,
    readonly agentId: string,
    readonly connectionId: string,
    private readonly detach: () => void,
  ) {}

  /** Its reader reconnected on another connection: on close, what this one sent goes back too. */
  supersede(): void {
    this.superseded = true;
  }

  async take(): Promise<Frame[]> {
    const f = await claimNext(this.em, this.agentId, this.userId, this.connectionId);
    return f ? [f] : [];
  }

  async delivered(frame: Frame): Promise<void> {
    this.marking = markDelivered(this.em, this.agentId, frame.eventId, this.connectionId);
    await this.marking;
  }

  async close(): Promise<void> {
    // A reader that leaves right after taking a frame races the mark of that frame: the mark
    // must land first, or the release below would hand the delivered frame out again.
    await this.marking.catch(() => undefined);
    if (!this.released) {
      this.released = true;
      this.detach();
    }
    const back = await releaseClaims(this.em, this.agentId, this.connectionId, { sent: this.superseded });
    if (back) await wakeConsumer(this.em, this.agentId);
  }
}
