import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger';
import type { Actor } from './actor';

/** What stopped working: every cached credential that matches any listed id is dropped. */
export interface RevocationScope {
  sessionIds?: string[];
  apiKeyIds?: string[];
  /** Deleted accounts: their sessions and keys. */
  userIds?: string[];
  /** Deleted agents: the keys issued to them. */
  agentIds?: string[];
}

/** The topic (src/events/topics.ts) on which every instance hears of revocations. */
export const CREDENTIALS_REVOKED_TOPIC = 'auth.credentials-revoked';

/** The listening connection every instance already has (src/events/notifier.ts). */
export interface RevocationFeed {
  readonly isConnected: boolean;
  onTopic(topic: string, fn: (data: unknown) => void): () => void;
  onReconnect(fn: () => void): () => void;
}

export interface CredentialCacheOptions {
  /** How long a verified credential is believed without asking the database; 0 turns caching off. */
  ttlMs: number;
  maxEntries: number;
  feed: RevocationFeed | null;
  /** This instance, as its listening connection is named (EventNotifier.instanceId). */
  instanceId: string;
  /** The instances listening now (this one included when its listener is up). */
  listeners: () => Promise<string[]>;
  /** Sends a notice on the topic to every instance (this one included), at once. */
  publish: (topic: string, data: unknown) => Promise<void>;
  logger: Logger;
  /** How long a revocation waits for every listening instance to confirm before answering. */
  ackTimeoutMs?: number;
  now?: () => number;
}

interface Entry {
  actor: Actor;
  /** When this instance stops believing the entry (the TTL). */
  until: number;
  /** When the credential itself ends (session expiry). */
  expiresAt: number;
}

/** A revocation, sent by `from`; every instance that hears it answers with an Ack. */
interface Notice {
  scope: RevocationScope;
  origin: string;
  from: string;
}

interface Ack {
  ack: string;
  by: string;
}

const listed = (list: unknown, id: string | null | undefined) => !!id && Array.isArray(list) && list.includes(id);
const matches = (a: Actor, s: RevocationScope) =>
  listed(s.sessionIds, a.sessionId) || listed(s.apiKeyIds, a.apiKeyId) || listed(s.agentIds, a.agentId) || listed(s.userIds, a.userId);

/**
 * Verified sessions and API keys, kept per instance for a few seconds so a signed-in request
 * costs no database round trip (docs/adr/0094-credential-cache.md). A revocation drops the
 * entries here, then tells every instance through Postgres NOTIFY and waits until each instance
 * listening at that moment has confirmed it dropped them too, so by the time the revoking
 * request answers, the credential works nowhere. While an instance's listener is down (notices
 * may be lost) it serves nothing from its cache, and it empties it when the listener is back.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every revocation: a lookup that began before one does not fill the cache. */
  private epoch = 0;
  /** Per revocation sent from here: the instances that have not confirmed yet. */
  private readonly pending = new Map<string, { waiting: Set<string>; done: () => void }>();
  private readonly now: () => number;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(private readonly opts: CredentialCacheOptions) {
    this.now = opts.now ?? Date.now;
    const feed = opts.feed;
    if (feed) {
      this.unsubscribe.push(
        feed.onTopic(CREDENTIALS_REVOKED_TOPIC, (data) => this.heard(data)),
        feed.onReconnect(() => this.clear()),
      );
    }
  }

  private get usable(): boolean {
    return this.opts.ttlMs > 0 && !!this.opts.feed?.isConnected;
  }

  /** Taken before the database lookup whose outcome `set` will store. */
  ticket(): number {
    return this.epoch;
  }

  get(key: string): Actor | null {
    if (!this.usable) return null;
    const e = this.entries.get(key);
    if (!e) return null;
    const now = this.now();
    if (now >= e.until || now >= e.expiresAt) {
      this.entries.delete(key);
      return null;
    }
    return { ...e.actor };
  }

  set(key: string, actor: Actor, expiresAt: number, ticket: number): void {
    if (!this.usable || ticket !== this.epoch) return;
    if (!this.entries.has(key) && this.entries.size >= this.opts.maxEntries) {
      // Oldest first (a Map iterates in insertion order).
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { actor: { ...actor }, until: this.now() + this.opts.ttlMs, expiresAt });
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  /**
   * Call after the change that ends the credentials has committed. Drops them here, tells every
   * instance, and returns once every instance listening now has confirmed (or after the
   * timeout, logged: an instance that cannot answer keeps its entries at most the TTL).
   */
  async revoked(scope: RevocationScope): Promise<void> {
    this.drop(scope);
    const self = this.opts.instanceId;
    let waiting: Set<string>;
    try {
      waiting = new Set(await this.opts.listeners());
    } catch (err) {
      this.opts.logger.warn({ err }, 'could not list the listening instances; waiting for this one only');
      waiting = new Set(this.opts.feed?.isConnected ? [self] : []);
    }
    // This instance dropped its entries above; its own notice need not come back to count.
    waiting.delete(self);
    const origin = randomUUID();
    let finish = () => undefined as void;
    const confirmed = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.opts.ackTimeoutMs ?? 2000);
      timer.unref();
      finish = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    if (waiting.size) this.pending.set(origin, { waiting, done: finish });
    try {
      await this.opts.publish(CREDENTIALS_REVOKED_TOPIC, { scope, origin, from: self } satisfies Notice);
    } catch (err) {
      this.pending.delete(origin);
      // Other instances keep believing their entries until the TTL ends.
      this.opts.logger.error({ err, scope }, 'could not announce a credential revocation to other instances');
      return;
    }
    if (!waiting.size) return;
    const ok = await confirmed;
    this.pending.delete(origin);
    if (!ok) this.opts.logger.warn({ scope, unconfirmed: [...waiting] }, 'instances did not confirm a credential revocation in time');
  }

  private heard(data: unknown): void {
    if (!data || typeof data !== 'object') return;
    const ack = data as Partial<Ack>;
    if (typeof ack.ack === 'string') {
      const p = this.pending.get(ack.ack);
      if (p && typeof ack.by === 'string' && p.waiting.delete(ack.by) && p.waiting.size === 0) p.done();
      return;
    }
    const n = data as Partial<Notice>;
    if (!n.scope || typeof n.scope !== 'object' || typeof n.origin !== 'string') return;
    this.drop(n.scope);
    if (n.from === this.opts.instanceId) return;
    this.opts.publish(CREDENTIALS_REVOKED_TOPIC, { ack: n.origin, by: this.opts.instanceId } satisfies Ack).catch((err) => {
      this.opts.logger.warn({ err }, 'could not confirm a credential revocation');
    });
  }

  private drop(scope: RevocationScope): void {
    this.epoch++;
    for (const [key, e] of this.entries) if (matches(e.actor, scope)) this.entries.delete(key);
  }

  stop(): void {
    for (const off of this.unsubscribe.splice(0)) off();
    for (const p of this.pending.values()) p.done();
    this.pending.clear();
    this.entries.clear();
  }
}
