import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import { FlushLoop } from '../shared/flush-loop';
import { touchApiKeys, touchSessions } from './auth.repository';

/** A credential's last use is written at most this often, so most checks write nothing. */
export const TOUCH_INTERVAL_MS = 60_000;

/** Rows of raw statements may carry the timestamp as text. */
const stale = (lastUsedAt: Date | string | null, now: number): boolean => !lastUsedAt || now - new Date(lastUsedAt).getTime() > TOUCH_INTERVAL_MS;

/**
 * The last uses of sessions and API keys, written after the requests that used them: a check
 * notes the credential, and every `flushMs` one statement per kind writes the noted ones. A
 * request never waits on that write (it was a commit on the credential check's path, once a
 * minute per credential). `lastUsedAt` is informational: it is up to one flush late, and a crash
 * loses at most the marks of the last flush interval.
 */
export class LastUses {
  private sessions = new Set<string>();
  private apiKeys = new Set<string>();
  private readonly loop: FlushLoop;
  private failing = false;

  constructor(
    private readonly em: () => EntityManager,
    private readonly logger: Logger,
    flushMs = 1000,
  ) {
    this.loop = new FlushLoop(() => this.flushOnce(), flushMs, () => this.sessions.size > 0 || this.apiKeys.size > 0);
  }

  /** Notes a session a check accepted, when its last mark (`lastUsedAt`, as read) is older than the interval. */
  session(id: string, lastUsedAt: Date | string | null, now = Date.now()): void {
    if (stale(lastUsedAt, now)) this.sessions.add(id);
  }

  /** Notes an API key a check accepted, on the same condition. */
  apiKey(id: string, lastUsedAt: Date | string | null, now = Date.now()): void {
    if (stale(lastUsedAt, now)) this.apiKeys.add(id);
  }

  /** Writes what is noted; after any flush already running. */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async flushOnce(): Promise<void> {
    const sessions = [...this.sessions];
    const apiKeys = [...this.apiKeys];
    if (!sessions.length && !apiKeys.length) return;
    this.sessions = new Set();
    this.apiKeys = new Set();
    const staleBefore = new Date(Date.now() - TOUCH_INTERVAL_MS);
    try {
      if (sessions.length) await touchSessions(this.em(), sessions, staleBefore);
      if (apiKeys.length) await touchApiKeys(this.em(), apiKeys, staleBefore);
      this.failing = false;
    } catch (err) {
      // Kept for the next flush; one warning per outage, not one per second.
      for (const id of sessions) this.sessions.add(id);
      for (const id of apiKeys) this.apiKeys.add(id);
      if (!this.failing) this.logger.warn({ err }, 'writing the last use of sessions and API keys failed; retrying');
      this.failing = true;
    }
  }
}
