import { EventEmitter } from 'node:events';
import { CREDENTIALS_REVOKED_TOPIC, CredentialCache, type RevocationFeed } from '../../src/domain/auth/credential-cache';
import type { Actor } from '../../src/domain/auth/actor';
import { createLogger } from '../../src/logger';

/** A listening connection in memory: what is published is heard back, as through Postgres. */
class FakeFeed implements RevocationFeed {
  isConnected = true;
  readonly emitter = new EventEmitter();
  onTopic(topic: string, fn: (data: unknown) => void) {
    this.emitter.on(topic, fn);
    return () => this.emitter.off(topic, fn);
  }
  onReconnect(fn: () => void) {
    this.emitter.on('reconnect', fn);
    return () => this.emitter.off('reconnect', fn);
  }
  deliver(topic: string, data: unknown) {
    setImmediate(() => this.emitter.emit(topic, data));
  }
}

const session: Actor = { userId: 'u1', credential: 'session', sessionId: 's1' };
const agentKey: Actor = { userId: 'u1', credential: 'apiKey', apiKeyId: 'k1', agentId: 'a1' };
const otherUser: Actor = { userId: 'u2', credential: 'session', sessionId: 's2' };

interface CacheOpts {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
  feed?: FakeFeed;
  publish?: (t: string, d: unknown) => Promise<void>;
  instanceId?: string;
  listeners?: string[];
  logger?: ReturnType<typeof createLogger>;
}

function cacheWith(opts: CacheOpts = {}) {
  const feed = opts.feed ?? new FakeFeed();
  const published: unknown[] = [];
  const cache = new CredentialCache({
    ttlMs: opts.ttlMs ?? 5000,
    maxEntries: opts.maxEntries ?? 100,
    feed,
    publish:
      opts.publish ??
      (async (topic, data) => {
        published.push(data);
        feed.deliver(topic, data);
      }),
    instanceId: opts.instanceId ?? 'here',
    listeners: async () => opts.listeners ?? [opts.instanceId ?? 'here'],
    logger: opts.logger ?? createLogger('silent'),
    ackTimeoutMs: 300,
    now: opts.now,
  });
  return { cache, feed, published };
}

describe('CredentialCache', () => {
  it('believes an entry until its TTL or the credential expiry, whichever comes first', () => {
    let now = 1000;
    const { cache } = cacheWith({ ttlMs: 5000, now: () => now });
    cache.set('a', session, Number.POSITIVE_INFINITY, cache.ticket());
    cache.set('b', otherUser, 3000, cache.ticket());
    expect(cache.get('a')).toEqual(session);
    expect(cache.get('b')).toEqual(otherUser);
    now = 3000;
    expect(cache.get('b')).toBeNull();
    expect(cache.get('a')).toEqual(session);
    now = 6000;
    expect(cache.get('a')).toBeNull();
  });

  it('hands out copies, so a caller cannot change what the next request gets', () => {
    const { cache } = cacheWith();
    cache.set('a', session, Number.POSITIVE_INFINITY, cache.ticket());
    cache.get('a')!.userId = 'someone else';
    expect(cache.get('a')).toEqual(session);
  });

  it('keeps nothing with a TTL of 0, or while the listener is down, and empties itself when it comes back', () => {
    expect((() => {
      const { cache } = cacheWith({ ttlMs: 0 });
      cache.set('a', session, Number.POSITIVE_INFINITY, cache.ticket());
      return cache.get('a');
    })()).toBeNull();

    const { cache, feed } = cacheWith();
    cache.set('a', session, Number.POSITIVE_INFINITY, cache.ticket());
    feed.isConnected = false;
    expect(cache.get('a')).toBeNull();
    feed.isConnected = true;
    expect(cache.get('a')).toEqual(session);
    feed.emitter.emit('reconnect');
    expect(cache.get('a')).toBeNull();
  });

  it('does not store a lookup that began before a revocation', async () => {
    const { cache } = cacheWith();
    const ticket = cache.ticket();
    await cache.revoked({ sessionIds: ['s9'] });
    cache.set('a', session, Number.POSITIVE_INFINITY, ticket);
    expect(cache.get('a')).toBeNull();
    cache.set('a', session, Number.POSITIVE_INFINITY, cache.ticket());
    expect(cache.get('a')).toEqual(session);
  });

  it('drops the oldest entry when full', () => {
    const { cache } = cacheWith({ maxEntries: 2 });
    cache.set('a', session, Number.POSITIVE_INFINITY, cache.ticket());
    cache.set('b', agentKey, Number.POSITIVE_INFINITY, cache.ticket());
    cache.set('c', otherUser, Number.POSITIVE_INFINITY, cache.ticket());
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeNull();
    expect(cache.get('c')).toEqual(otherUser);
  });

  it('drops by session, key, agent and user, here and on every listening instance before it returns', async () => {
    const feed = new FakeFeed();
    const listeners = ['here', 'there'];
    const here = cacheWith({ feed, listeners });
    const there = cacheWith({ feed, listeners, instanceId: 'there' });
    for (const c of [here.cache, there.cache]) {
      c.set('s', session, Number.POSITIVE_INFINITY, c.ticket());
      c.set('k', agentKey, Number.POSITIVE_INFINITY, c.ticket());
      c.set('o', otherUser, Number.POSITIVE_INFINITY, c.ticket());
    }
    await here.cache.revoked({ agentIds: ['a1'] });
    expect(here.published).toEqual([{ scope: { agentIds: ['a1'] }, origin: expect.any(String), from: 'here' }]);
    expect(there.published).toEqual([{ ack: (here.published[0] as { origin: string }).origin, by: 'there' }]);
    for (const c of [here.cache, there.cache]) expect([c.get('s'), c.get('k'), c.get('o')]).toEqual([session, null, otherUser]);
    await here.cache.revoked({ sessionIds: ['s2'] });
    for (const c of [here.cache, there.cache]) expect([c.get('s'), c.get('o')]).toEqual([session, null]);
    await here.cache.revoked({ userIds: ['u1'] });
    for (const c of [here.cache, there.cache]) expect(c.size).toBe(0);
    // Notices that are not ours are ignored.
    feed.emitter.emit(CREDENTIALS_REVOKED_TOPIC, 'nonsense');
    feed.emitter.emit(CREDENTIALS_REVOKED_TOPIC, { scope: { userIds: 'u1' } });
  });

  it('waits for a listening instance that does not confirm only until the timeout, and says which', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const { cache } = cacheWith({ listeners: ['here', 'silent'], logger: createLogger('warn', { write: (l: string) => void lines.push(JSON.parse(l)) }) });
    cache.set('s', session, Number.POSITIVE_INFINITY, cache.ticket());
    await cache.revoked({ sessionIds: ['s1'] });
    expect(cache.get('s')).toBeNull();
    expect(lines).toEqual([expect.objectContaining({ msg: 'instances did not confirm a credential revocation in time', unconfirmed: ['silent'] })]);
  });

  it('answers a revocation whose notice cannot be sent, having dropped its own entries', async () => {
    const { cache } = cacheWith({ publish: async () => Promise.reject(new Error('database down')) });
    cache.set('s', session, Number.POSITIVE_INFINITY, cache.ticket());
    await cache.revoked({ sessionIds: ['s1'] });
    expect(cache.get('s')).toBeNull();
  });
});
