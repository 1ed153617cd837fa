import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import type { Logger } from '../../logger';
import { EVENTS_CHANNEL, type NotifyPayload } from './event-log';
import { listenOn } from './events.repository';
import { TOPICS_CHANNEL, type TopicNotice } from './topics';

/** The application_name prefix of every instance's listening connection. */
export const LISTENER_APP_PREFIX = 'im-listener ';

/**
 * Listens on the events channel with one dedicated connection per process and fans each
 * committed frame's (userId, eventId) out to local listeners. Frames themselves are read
 * from the table, so a lost notification only delays delivery until the next one or a
 * reconnect-triggered catch-up (`onReconnect`). The same connection listens on the topics
 * channel, whose notices carry short-lived stream data (src/events/topics.ts).
 */
export class EventNotifier {
  /**
   * Names this instance's listening connection (`application_name`), so an instance can see in
   * pg_stat_activity which others are listening (src/auth/credential-cache.ts waits for each).
   */
  readonly instanceId = randomUUID();
  private client: Client | null = null;
  private readonly emitter = new EventEmitter();
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private connected = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  get isConnected(): boolean {
    return this.connected;
  }

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: `${LISTENER_APP_PREFIX}${this.instanceId}` });
    client.on('notification', (msg) => {
      if (msg.channel === TOPICS_CHANNEL && msg.payload) return this.emitTopic(msg.payload);
      if (msg.channel !== EVENTS_CHANNEL || !msg.payload) return;
      try {
        const p = JSON.parse(msg.payload) as NotifyPayload;
        this.emitter.emit(`user:${p.userId}`, p.eventId);
        this.emitter.emit('any', p);
      } catch (err) {
        this.logger.warn({ err }, 'unreadable event notification');
      }
    });
    client.on('error', (err) => {
      this.logger.warn({ err }, 'event listener connection failed; reconnecting');
      this.scheduleReconnect();
    });
    client.on('end', () => this.scheduleReconnect());
    await client.connect();
    await listenOn(client, [EVENTS_CHANNEL, TOPICS_CHANNEL]);
    if (this.closed) {
      // Stopped while this (re)connect was under way: its socket would keep the process alive.
      client.removeAllListeners();
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.connected = true;
  }

  private scheduleReconnect(): void {
    this.connected = false;
    if (this.closed || this.retryTimer) return;
    const old = this.client;
    this.client = null;
    old?.removeAllListeners();
    old?.end().catch(() => undefined);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect()
        .then(() => this.emitter.emit('reconnect'))
        .catch((err) => {
          this.logger.warn({ err }, 'event listener reconnect failed');
          this.scheduleReconnect();
        });
    }, 1000);
    this.retryTimer.unref();
  }

  private emitTopic(payload: string): void {
    try {
      const notice = JSON.parse(payload) as TopicNotice;
      if (typeof notice.topic === 'string') this.emitter.emit(`topic:${notice.topic}`, notice.data);
    } catch (err) {
      this.logger.warn({ err }, 'unreadable topic notification');
    }
  }

  /** Calls `fn(data)` for every notice published on `topic` (src/events/topics.ts), on any instance. */
  onTopic(topic: string, fn: (data: unknown) => void): () => void {
    const key = `topic:${topic}`;
    this.emitter.on(key, fn);
    return () => this.emitter.off(key, fn);
  }

  /** Calls `fn(eventId)` whenever a frame for `userId` commits, on any instance. */
  onUser(userId: string, fn: (eventId: string) => void): () => void {
    const key = `user:${userId}`;
    this.emitter.on(key, fn);
    return () => this.emitter.off(key, fn);
  }

  onAny(fn: (p: NotifyPayload) => void): () => void {
    this.emitter.on('any', fn);
    return () => this.emitter.off('any', fn);
  }

  /** Listeners should re-read from their last id: notifications sent while down are lost. */
  onReconnect(fn: () => void): () => void {
    this.emitter.on('reconnect', fn);
    return () => this.emitter.off('reconnect', fn);
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.connected = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const c = this.client;
    this.client = null;
    if (c) {
      c.removeAllListeners();
      await c.end().catch(() => undefined);
    }
    this.emitter.removeAllListeners();
  }
}
