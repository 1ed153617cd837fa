import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor';
import { existingApiKeyIds, liveSessionIds } from '../auth/auth.repository';
import { acknowledge, consumerTopic, ensureConsumer, heartbeatClaims, releaseStaleClaims, wakeConsumer, type ConsumerNotice } from './consumer-claims.repository';
import { latestEventId, readEvents, type Frame } from './event-log';
import { FrameFeed } from './frame-feed';
import type { FrameHub } from './frame-hub';
import { ConsumerSource, CursorSource } from './frame-sources';
import type { EventNotifier } from './notifier';
import type { AgentService } from '../agents/agent.service';
import { selectedNegotiator } from '../agents/agents.repository';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { DomainError, unavailable } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { LOG_PAGE, logQuerySchema, streamQuerySchema } from './event-stream.schemas';
import { requireSeatHolder } from '../access/negotiator-seat.policy';
import { requireAccess } from '../access/require-access';

/** How often consumer connections renew their claims and re-check the seat. */
export const CONSUMER_HEARTBEAT_MS = 10_000;
/** A claim not renewed for this long belongs to a connection whose process died. */
export const CLAIM_STALE_MS = 3 * CONSUMER_HEARTBEAT_MS;

interface OpenStream {
  feed: FrameFeed;
  userId: string;
  /** The credential that opened it: the stream ends when it is revoked, expires or is deleted. */
  sessionId?: string;
  apiKeyId?: string;
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
  /** The most bytes a cut-off stream still held unwritten (at most one frame: streams pull). */
  maxBufferedAtCutOff: number;
}

const eventsUnavailable = () => unavailable('events_unavailable', { detail: 'The event stream cannot be served right now; try again later' });

/**
 * The event feed of a user (docs/adr/0052-event-stream.md, 0053-stream-consumers.md): the log
 * page, and streams that replay from the table and then follow new frames. GraphQL
 * subscriptions iterate the streams; the SSE route is built on them.
 */
export class EventStreamService extends DomainService {
  private readonly streams = new Set<OpenStream>();
  private sharedEm: EntityManager | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private cutOff = 0;
  private maxBufferedAtCutOff = 0;

  private readonly notifier: EventNotifier;
  private readonly hub: FrameHub;
  private readonly agents: AgentService;
  private readonly closers: Set<() => Promise<void> | void>;

  constructor(
    core: CoreDeps,
    deps: { notifier: EventNotifier; hub: FrameHub; agents: AgentService; closers: Set<() => Promise<void> | void> },
  ) {
    super(core);
    ({ notifier: this.notifier, hub: this.hub, agents: this.agents, closers: this.closers } = deps);
  }

  start(): void {
    this.hub.start();
    this.heartbeat = setInterval(() => {
      void this.renewConsumers();
      void this.checkCredentials().catch((err) => this.logger.warn({ err }, 'stream credential check failed'));
    }, CONSUMER_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await Promise.all([...this.streams].map((s) => s.feed.return()));
    this.hub.stop();
  }

  stats(): StreamStats {
    const consumers = [...this.streams].filter((s) => s.consumer).length;
    return { open: this.streams.size, consumers, channels: this.hub.openChannels, cutOff: this.cutOff, maxBufferedAtCutOff: this.maxBufferedAtCutOff };
  }

  /** The transport cut a stream off (its client stopped reading), holding `buffered` unwritten bytes. */
  noteCutOff(buffered: number): void {
    this.cutOff += 1;
    this.maxBufferedAtCutOff = Math.max(this.maxBufferedAtCutOff, buffered);
  }

  /** GET /api/events/log: oldest first, `next` set when the page is full. */
  async log(a: Actor, raw: unknown): Promise<{ events: Frame[]; next: string | null }> {
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
  async open(a: Actor, raw: unknown): Promise<FrameFeed> {
    const q = parseInput(streamQuerySchema, raw ?? {});
    if (!this.notifier.isConnected) throw eventsUnavailable();
    const agentId = q.consumer ? await this.requireConsumer(a.userId, q.consumer) : null;
    const em = this.feedEm();
    const start = q.after ?? (await this.available(() => latestEventId(em, a.userId)));
    const detach = this.hub.attach(a.userId);
    let stream: OpenStream;
    try {
      if (agentId) {
        const connectionId = randomUUID();
        await this.available(() => this.startConsumer(em, agentId, a.userId, start, q.after ?? null, connectionId));
        const consumer = new ConsumerSource(em, a.userId, agentId, connectionId, detach);
        const feed = new FrameFeed(consumer, (wake) => this.hub.waitFor(a.userId, wake));
        // Frames returned to the consumer (a connection ended, a reader reconnected) wake every
        // connection of it, on every instance; the notice may also end this one.
        const off = this.notifier.onTopic(consumerTopic(agentId), (data) => {
          if ((data as ConsumerNotice | null)?.superseded === connectionId) {
            consumer.supersede();
            void feed.return();
          } else feed.poke();
        });
        feed.onClose(off);
        stream = { feed, userId: a.userId, consumer, em };
      } else {
        const source = new CursorSource(this.hub, em, a.userId, start, detach);
        stream = { feed: new FrameFeed(source, (wake) => this.hub.waitFor(a.userId, wake), start), userId: a.userId, em };
      }
    } catch (err) {
      detach();
      throw err;
    }
    stream.sessionId = a.sessionId;
    stream.apiKeyId = a.apiKeyId;
    const closer = () => stream.feed.return().then(() => undefined);
    this.streams.add(stream);
    this.closers.add(closer);
    stream.feed.onClose(() => {
      this.streams.delete(stream);
      this.closers.delete(closer);
    });
    return stream.feed;
  }

  /**
   * A consumer connection opens: the consumer is created at `start` the first time; frames
   * held by dead instances go back; and an existing consumer's cursor is its reader's
   * acknowledgement: what that reader's old connection sent after the cursor goes back to be
   * sent again, and the old connection ends wherever it runs (docs/adr/0053-stream-consumers.md).
   */
  private async startConsumer(em: EntityManager, agentId: string, userId: string, start: string, cursor: string | null, connectionId: string): Promise<void> {
    const created = await ensureConsumer(em, agentId, userId, start);
    const stale = await releaseStaleClaims(em, agentId, CLAIM_STALE_MS);
    const ack = !created && cursor ? await acknowledge(em, agentId, cursor, connectionId) : null;
    if (ack) await wakeConsumer(em, agentId, { superseded: ack.sender });
    else if (stale) await wakeConsumer(em, agentId);
  }

  /**
   * Streams only run plain SQL outside transactions (each statement takes a pool connection
   * and gives it back), so they share one EntityManager instead of holding one each.
   */
  private feedEm(): EntityManager {
    this.sharedEm ??= this.core.orm.em.fork() as EntityManager;
    return this.sharedEm;
  }

  /** The seat moved (negotiator.changed): consumer streams of another agent end. */
  async seatChanged(userId: string, agentId: string): Promise<void> {
    const ending = [...this.streams].filter((s) => s.userId === userId && s.consumer && s.consumer.agentId !== agentId);
    await Promise.all(ending.map((s) => s.feed.return()));
  }

  private async requireConsumer(userId: string, consumer: string): Promise<string> {
    const agentId = consumer.toLowerCase();
    await this.available(() => requireAccess(this.em, { userId }, 'agent.own', [agentId]));
    await this.available(() => requireSeatHolder(this.em, userId, agentId));
    await this.available(() => this.agents.markSeen(agentId));
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

  /**
   * Ends the streams whose session was revoked or expired, or whose API key or account was
   * deleted since they opened (two batched reads for all open streams).
   */
  async checkCredentials(): Promise<number> {
    const open = [...this.streams].filter((s) => !s.feed.isClosed);
    const sessionIds = [...new Set(open.flatMap((s) => (s.sessionId ? [s.sessionId] : [])))];
    const keyIds = [...new Set(open.flatMap((s) => (s.apiKeyId ? [s.apiKeyId] : [])))];
    if (!sessionIds.length && !keyIds.length) return 0;
    const em = this.feedEm();
    const liveSessions = sessionIds.length ? await liveSessionIds(em, sessionIds) : [];
    const liveKeys = keyIds.length ? await existingApiKeyIds(em, keyIds) : [];
    const live = new Set([...liveSessions, ...liveKeys].map((r) => r.id));
    const ending = open.filter((s) => (s.sessionId && !live.has(s.sessionId)) || (s.apiKeyId && !live.has(s.apiKeyId)));
    await Promise.all(ending.map((s) => s.feed.return()));
    return ending.length;
  }

  /** Renews in-flight claims and ends consumer streams whose agent lost the seat on any instance. */
  private async renewConsumers(): Promise<void> {
    for (const s of this.streams) {
      if (!s.consumer || s.feed.isClosed) continue;
      try {
        await heartbeatClaims(s.em, s.consumer.agentId, s.consumer.connectionId);
        // Frames a dead instance's connection held go to the live connections of the consumer.
        if (await releaseStaleClaims(s.em, s.consumer.agentId, CLAIM_STALE_MS)) await wakeConsumer(s.em, s.consumer.agentId);
        const seat = await selectedNegotiator(s.em, s.userId);
        if (seat.agentId !== s.consumer.agentId) await s.feed.return();
      } catch (err) {
        this.logger.warn({ err }, 'consumer heartbeat failed');
      }
    }
  }
}
