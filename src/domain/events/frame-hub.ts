import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import type { Logger } from '../../logger';
import { readEvents, toFrame, type Frame } from './event-log';
import { eventsByIds, type UserEventRow } from './events.repository';

import type { EventNotifier } from './notifier';

/** How many recent frames a user's channel keeps, by count and by JSON size. */
const CACHE_FRAMES = 256;
const CACHE_BYTES = 512 * 1024;
const FETCH_PAGE = 200;
/** (user, id) pairs read per query when a burst is fetched. */
const PAIRS_PER_QUERY = 500;

interface Channel {
  /** Streams of this user open in this process. */
  refs: number;
  /** Callbacks waiting for the next frame, in the order they started waiting. */
  waiters: Set<() => void>;
  /** Recent frames, consecutive ids, oldest first. */
  cache: Frame[];
  /** JSON size of each cached frame, for the byte bound. */
  sizes: number[];
  cacheBytes: number;
  /** A fetch is running; `again` asks for one more when it ends (a notification arrived meanwhile). */
  fetching: boolean;
  again: boolean;
  /** The smallest id notified since the cache was last empty. */
  notifiedFrom: bigint | null;
  /** Notified frames are queued for (or in) a batched read that will wake the waiters. */
  batched: boolean;
}

/**
 * One per process: turns the notifier's (userId, eventId) pings into one table read per burst
 * for each user with open streams, keeps the last few frames of that user, and wakes the
 * streams waiting for them. N streams of a user therefore cost one query per new frame, not N,
 * and a stream that falls behind the cache reads the table itself. Frames are never pushed
 * into a stream: each stream pulls when its client can take more, so a slow client holds no
 * queue here (docs/adr/0052-event-stream.md).
 */
export class FrameHub {
  private readonly channels = new Map<string, Channel>();
  private readonly offs: Array<() => void> = [];
  /** Notified ids per user waiting for the next batched read. */
  private readonly pending = new Map<string, bigint[]>();
  private flushScheduled = false;
  private flushing = false;
  private flushAgain = false;

  constructor(
    private readonly orm: Orm,
    private readonly notifier: EventNotifier,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.offs.push(this.notifier.onAny((p) => this.notified(p.userId, p.eventId)));
    // Pings sent while the listener was down are lost: fetch again for every open channel.
    this.offs.push(this.notifier.onReconnect(() => this.channels.forEach((_c, userId) => this.refresh(userId))));
  }

  stop(): void {
    this.offs.splice(0).forEach((off) => off());
    for (const c of this.channels.values()) c.waiters.forEach((w) => w());
    this.channels.clear();
  }

  get openChannels(): number {
    return this.channels.size;
  }

  /** Keeps the user's channel while a stream is open; call the result when it closes. */
  attach(userId: string): () => void {
    let c = this.channels.get(userId);
    if (!c) {
      c = { refs: 0, waiters: new Set(), cache: [], sizes: [], cacheBytes: 0, fetching: false, again: false, notifiedFrom: null, batched: false };
      this.channels.set(userId, c);
    }
    c.refs += 1;
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      const ch = this.channels.get(userId);
      if (ch && --ch.refs === 0) this.channels.delete(userId);
    };
  }

  /** Calls `fn` once, when the next frame for the user is in (or the hub stops). Returns a cancel. */
  waitFor(userId: string, fn: () => void): () => void {
    const c = this.channels.get(userId);
    if (!c) {
      fn();
      return () => undefined;
    }
    c.waiters.add(fn);
    return () => c.waiters.delete(fn);
  }

  /** Frames after `after`, oldest first, from the cache when it holds them, else from the table. */
  async read(userId: string, after: string, limit: number, em: EntityManager): Promise<Frame[]> {
    const c = this.channels.get(userId);
    const from = BigInt(after) + 1n;
    if (c && c.cache.length && BigInt(c.cache[0].eventId) <= from) {
      const start = Number(from - BigInt(c.cache[0].eventId));
      if (start < c.cache.length) return c.cache.slice(start, start + limit);
      // The cache ends at or before `after`: nothing newer has been fetched yet. A fetch still
      // running will wake the caller; otherwise the table decides.
      if (c.fetching || c.again || c.batched) return [];
    }
    return readEvents(em, userId, after, limit);
  }

  private notified(userId: string, eventId: string): void {
    const c = this.channels.get(userId);
    if (!c) return;
    const id = BigInt(eventId);
    if (c.notifiedFrom === null || id < c.notifiedFrom) c.notifiedFrom = id;
    // A burst of commits (a frame to each of 10k users) becomes a few batched reads, not one per user.
    c.batched = true;
    let ids = this.pending.get(userId);
    if (!ids) this.pending.set(userId, (ids = []));
    ids.push(id);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
    }
  }

  /** Reads the notified frames of many users by their exact (user, id), a page of pairs per query. */
  private async flush(): Promise<void> {
    this.flushScheduled = false;
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    this.flushing = true;
    try {
      while (this.pending.size) {
        const batch: Array<[string, bigint[]]> = [];
        let pairs = 0;
        for (const entry of this.pending) {
          batch.push(entry);
          this.pending.delete(entry[0]);
          pairs += entry[1].length;
          if (pairs >= PAIRS_PER_QUERY) break;
        }
        await this.fetchPairs(batch);
      }
    } finally {
      this.flushing = false;
      if (this.flushAgain) {
        this.flushAgain = false;
        void this.flush();
      }
    }
  }

  private async fetchPairs(batch: Array<[string, bigint[]]>): Promise<void> {
    const wanted: Array<[string, bigint[]]> = [];
    for (const [userId, ids] of batch) {
      const c = this.channels.get(userId);
      if (!c) continue;
      // A channel already fetching per user (after a reconnect) picks these up itself.
      if (c.fetching) {
        c.batched = false;
        c.again = true;
        continue;
      }
      const last = c.cache.length ? BigInt(c.cache[c.cache.length - 1].eventId) : null;
      const fresh = ids.filter((id) => last === null || id > last);
      if (fresh.length) wanted.push([userId, fresh]);
      else this.settle(c);
    }
    if (!wanted.length) return;
    const pairs = wanted.flatMap(([userId, ids]) => ids.map((id): [string, string] => [userId, String(id)]));
    let rows: UserEventRow[];
    try {
      rows = await eventsByIds(this.orm.em.fork() as EntityManager, pairs);
    } catch (err) {
      this.logger.warn({ err }, 'event hub could not read new frames; streams read the table themselves');
      rows = [];
    }
    const byUser = new Map<string, UserEventRow[]>();
    for (const r of rows) {
      const list = byUser.get(r.user_id) ?? [];
      list.push(r);
      byUser.set(r.user_id, list);
    }
    for (const [userId] of wanted) {
      const c = this.channels.get(userId);
      if (!c) continue;
      const found = byUser.get(userId) ?? [];
      // Nothing read (an error, or rows already pruned): an empty cache sends readers to the table.
      if (!found.length) this.clear(c);
      for (const r of found) this.push(c, toFrame(r));
      c.notifiedFrom = null;
      this.settle(c);
    }
  }

  /** The channel's batched read is done: wake whoever waits for it. */
  private settle(c: Channel): void {
    c.batched = false;
    const waiters = [...c.waiters];
    c.waiters.clear();
    waiters.forEach((w) => w());
  }

  private refresh(userId: string): void {
    const c = this.channels.get(userId);
    if (!c) return;
    if (c.fetching) {
      c.again = true;
      return;
    }
    c.fetching = true;
    void this.fetch(userId, c).finally(() => {
      c.fetching = false;
      if (c.again) {
        c.again = false;
        this.refresh(userId);
      }
    });
  }

  private async fetch(userId: string, c: Channel): Promise<void> {
    const em = this.orm.em.fork() as EntityManager;
    try {
      for (;;) {
        const last = c.cache.at(-1)?.eventId;
        const after = last ?? (c.notifiedFrom !== null ? String(c.notifiedFrom - 1n) : null);
        if (after === null) break;
        const frames = await readEvents(em, userId, after, FETCH_PAGE);
        for (const f of frames) this.push(c, f);
        if (frames.length < FETCH_PAGE) break;
      }
      c.notifiedFrom = null;
    } catch (err) {
      this.logger.warn({ err, userId }, 'event hub could not read new frames; streams read the table themselves');
      // The streams fall back to the table: an empty cache never answers for them.
      this.clear(c);
    }
    const waiters = [...c.waiters];
    c.waiters.clear();
    waiters.forEach((w) => w());
  }

  private push(c: Channel, f: Frame): void {
    const last = c.cache.at(-1);
    // Not consecutive (a gap the log never has, or a stale cache): start over from this frame.
    if (last && BigInt(f.eventId) !== BigInt(last.eventId) + 1n) this.clear(c);
    const size = JSON.stringify(f).length;
    c.cache.push(f);
    c.sizes.push(size);
    c.cacheBytes += size;
    while (c.cache.length > CACHE_FRAMES || (c.cacheBytes > CACHE_BYTES && c.cache.length > 1)) {
      c.cache.shift();
      c.cacheBytes -= c.sizes.shift() ?? 0;
    }
  }

  private clear(c: Channel): void {
    c.cache = [];
    c.sizes = [];
    c.cacheBytes = 0;
  }
}
