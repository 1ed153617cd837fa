import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../auth/actor';
import { ensureConsumer, heartbeatClaims, releaseStaleClaims } from '../../events/consumer-claims';
import { latestEventId, readEvents, type Frame } from '../../events/event-log';
import { FrameFeed } from '../../events/frame-feed';
import type { FrameHub } from '../../events/frame-hub';
import { ConsumerSource, CursorSource } from '../../events/frame-sources';
import type { EventNotifier } from '../../events/notifier';
import { selectedNegotiator } from '../agents/selected-negotiator';
import { notSelectedNegotiator } from '../conversations/conversation.errors';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { DomainError, notFound, unauthenticated, unavailable } from '../shared/errors';
import { isUuid, parseInput } from '../shared/validation';
import { LOG_PAGE, logQuerySchema, streamQuerySchema } from './event-stream.schemas';

/** How often consumer connections renew their claims and re-check the seat. */
export const CONSUMER_HEARTBEAT_MS = 10_000;
/** A claim not renewed for this long belongs to a connection whose process died. */
export const CLAIM_STALE_MS = 3 * CONSUMER_HEARTBEAT_MS;

interface OpenStream {
  feed: FrameFeed;
  userId: string;
  /** Set for consumer streams. */
  consumer?: ConsumerSource;
  em: EntityManager;
}

export interface StreamStats {
  /** Streams open in this process (SSE and GraphQL subscriptions). */
  open: number;
  consumers: number;
  /** Users with at least one open stream here. */
  channels: number;
  /** Streams cut off because their client stopped reading. */
  cutOff: number;
}

const requireActor = (actor: Actor | null): Actor => {
  if (!actor) throw unauthenticated();
  return actor;
};

const eventsUnavailable = () => unavailable('events_unavailable', { detail: 'The event stream cannot be served right now; try again later' });

/**
 * The event feed of a user (docs/adr/0052-event-stream.md, 0053-stream-consumers.md): the log
 * page, and streams that replay from the table and then follow new frames. GraphQL
 * subscriptions iterate the streams; the SSE route is built on them.
 */
export class EventStreamService extends DomainService {
  private readonly streams = new Set<OpenStream>();
  private heartbeat: NodeJS.Timeout | null = null;
  private cutOff = 0;

  constructor(
    core: CoreDeps,
    private readonly notifier: EventNotifier,
    private readonly hub: FrameHub,
    private readonly closers: Set<() => Promise<void> | void>,
  ) {
    super(core);
  }

  start(): void {
    this.hub.start();
    this.heartbeat = setInterval(() => void this.renewConsumers(), CONSUMER_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await Promise.all([...this.streams].map((s) => s.feed.return()));
    this.hub.stop();
  }

  stats(): StreamStats {
    const consumers = [...this.streams].filter((s) => s.consumer).length;
    return { open: this.streams.size, consumers, channels: this.hub.openChannels, cutOff: this.cutOff };
  }

  /** The transport cut a stream off (its client stopped reading). */
  noteCutOff(): void {
    this.cutOff += 1;
  }

  /** GET /api/events/log: oldest first, `next` set when the page is full. */
  async log(actor: Actor | null, raw: unknown): Promise<{ events: Frame[]; next: string | null }> {
    const a = requireActor(actor);
    const q = parseInput(logQuerySchema, raw ?? {});
    const limit = q.limit ?? LOG_PAGE.defaultLimit;
    const events = await this.available(() => readEvents(this.em, a.userId, q.after ?? null, limit));
    return { events, next: events.length === limit ? events[events.length - 1].eventId : null };
  }

  /**
   * Opens a stream. Without a cursor it starts at the user's latest frame (only new frames);
   * `after` (or Last-Event-ID) replays what follows it, oldest kept first. `consumer` names one
   * of the caller's agents (404 otherwise) holding the negotiation seat (409 otherwise) and
   * reads from that agent's server-side offset.
   */
  async open(actor: Actor | null, raw: unknown): Promise<FrameFeed> {
    const a = requireActor(actor);
    const q = parseInput(streamQuerySchema, raw ?? {});
    if (!this.notifier.isConnected) throw eventsUnavailable();
    const agentId = q.consumer ? await this.requireConsumer(a.userId, q.consumer) : null;
    const em = this.core.orm.em.fork() as EntityManager;
    const start = q.after ?? (await this.available(() => latestEventId(em, a.userId)));
    const detach = this.hub.attach(a.userId);
    let stream: OpenStream;
    try {
      if (agentId) {
        await this.available(async () => {
          await ensureConsumer(em, agentId, a.userId, start);
          await releaseStaleClaims(em, agentId, CLAIM_STALE_MS);
        });
        const consumer = new ConsumerSource(em, a.userId, agentId, randomUUID(), detach);
        stream = { feed: new FrameFeed(consumer, (wake) => this.hub.waitFor(a.userId, wake)), userId: a.userId, consumer, em };
      } else {
        const source = new CursorSource(this.hub, em, a.userId, start, detach);
        stream = { feed: new FrameFeed(source, (wake) => this.hub.waitFor(a.userId, wake)), userId: a.userId, em };
      }
    } catch (err) {
      detach();
      throw err;
    }
    const closer = () => stream.feed.return().then(() => undefined);
    this.streams.add(stream);
    this.closers.add(closer);
    stream.feed.onClose(() => {
      this.streams.delete(stream);
      this.closers.delete(closer);
    });
    return stream.feed;
  }

  /** The seat moved (negotiator.changed): consumer streams of another agent end. */
  async seatChanged(userId: string, agentId: string): Promise<void> {
    const ending = [...this.streams].filter((s) => s.userId === userId && s.consumer && s.consumer.agentId !== agentId);
    await Promise.all(ending.map((s) => s.feed.return()));
  }

  private async requireConsumer(userId: string, consumer: string): Promise<string> {
    const agentId = consumer.toLowerCase();
    const owned = isUuid(agentId)
      ? await this.available(() => this.em.execute(`select 1 from agents where id = ? and owner_id = ?`, [agentId, userId]))
      : [];
    if (!owned.length) throw notFound('Agent');
    const seat = await this.available(() => selectedNegotiator(this.em, userId));
    if (seat.agentId !== agentId) throw notSelectedNegotiator(agentId);
    await this.available(() =>
      this.em.execute(`update agents set last_seen_at = now() where id = ? and (last_seen_at is null or last_seen_at < now() - interval '1 minute')`, [agentId]),
    );
    return agentId;
  }

  /** Database trouble while opening or paging is 503 (try later), not 500. */
  private async available<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof DomainError) throw err;
      this.logger.warn({ err }, 'event log unavailable');
      throw eventsUnavailable();
    }
  }

  /** Renews in-flight claims and ends consumer streams whose agent lost the seat on any instance. */
  private async renewConsumers(): Promise<void> {
    for (const s of this.streams) {
      if (!s.consumer || s.feed.isClosed) continue;
      try {
        await heartbeatClaims(s.em, s.consumer.agentId, s.consumer.connectionId);
        const seat = await selectedNegotiator(s.em, s.userId);
        if (seat.agentId !== s.consumer.agentId) await s.feed.return();
      } catch (err) {
        this.logger.warn({ err }, 'consumer heartbeat failed');
      }
    }
  }
}
