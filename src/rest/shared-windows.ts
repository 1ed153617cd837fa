import type { Orm } from '../db/orm';
import { FlushLoop } from '../domain/shared/flush-loop';
import type { Logger } from '../logger';
import { type Budget, type Count, policyOf, type RateBudgets, WINDOW_MS } from './rate-budgets';
import { addRateLimitCounts, type SharedCount } from './rate-limit.repository';

interface Window {
  /** The shared row's count as of this instance's last flush (every instance's requests). */
  shared: number;
  /** This instance's requests since, not yet added to the row. */
  pending: number;
  expire: number;
}

/**
 * One budget counted in fixed windows that every instance shares through table rate_limits.
 * Each request is decided here, at once, on the row's count as of the last flush plus this
 * instance's requests since; the increments go to the row in batches (SharedStore).
 */
class SharedWindows implements Budget {
  readonly policy: string;
  readonly windows = new Map<string, Window>();

  constructor(
    readonly prefix: string,
    readonly limit: number,
    private readonly store: { available: boolean },
  ) {
    this.policy = policyOf(limit);
  }

  take(key: string, now: number): Count | null {
    if (!this.store.available) return null;
    const k = this.prefix + key;
    let w = this.windows.get(k);
    if (!w) {
      w = { shared: 0, pending: 0, expire: now + WINDOW_MS };
      this.windows.set(k, w);
    } else if (w.expire <= now) {
      w.shared = 0;
      w.expire = now + WINDOW_MS;
    }
    const used = w.shared + w.pending;
    const resetMs = w.expire - now;
    if (used >= this.limit) return { allowed: false, remaining: 0, resetMs, retryMs: resetMs };
    w.pending += 1;
    return { allowed: true, remaining: this.limit - used - 1, resetMs, retryMs: 0 };
  }
}

/**
 * Budgets shared by every instance on one database, with writes batched: every `flushMs` one
 * statement adds each key's pending requests to its row and reads back the rows of the other keys
 * this instance holds. Accuracy: an instance sees the others' requests at most one flush (plus a
 * round trip) late, so a caller spread over N instances can be let through up to what the other
 * N-1 admitted in that time beyond the budget. While the table cannot be reached, requests are let
 * through without headers (an outage of the counter must not take the API down) and not counted;
 * the next flush that answers brings the counts back.
 */
export class SharedStore implements RateBudgets {
  readonly reads: SharedWindows;
  readonly writes: SharedWindows;
  private readonly state = { available: true };
  private readonly loop: FlushLoop;

  constructor(
    private readonly orm: Orm,
    private readonly logger: Logger,
    limits: { reads: number; writes: number; flushMs: number },
  ) {
    this.reads = new SharedWindows('r:', limits.reads, this.state);
    this.writes = new SharedWindows('w:', limits.writes, this.state);
    // Nothing counted (the limiter off, or no caller this window) and the store answering: no statement to send.
    const due = () => !this.state.available || this.reads.windows.size > 0 || this.writes.windows.size > 0;
    this.loop = new FlushLoop(() => this.flushOnce(), limits.flushMs, due);
  }

  /** Sends what is pending and reads back the shared counts; after any flush already running. */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async flushOnce(): Promise<void> {
    const now = Date.now();
    const sent: Array<{ key: string; points: number; window: Window }> = [];
    const watch: string[] = [];
    for (const budget of [this.reads, this.writes]) {
      for (const [key, w] of budget.windows) {
        if (w.pending > 0) sent.push({ key, points: w.pending, window: w });
        else if (w.expire <= now) budget.windows.delete(key);
        else watch.push(key);
      }
    }
    // While unavailable the statement runs anyway, empty: it is how the store is found again.
    if (sent.length === 0 && watch.length === 0 && this.state.available) return;
    let rows: SharedCount[];
    try {
      rows = await addRateLimitCounts(this.orm.em, sent.map(({ key, points }) => ({ key, points })), watch, now, now + WINDOW_MS);
    } catch (err) {
      if (this.state.available) this.logger.warn({ err }, 'rate limit store unavailable; requests allowed until it answers');
      this.state.available = false;
      // What was counted stays pending for the flush that answers.
      return;
    }
    if (!this.state.available) this.logger.info('rate limit store answers again');
    this.state.available = true;
    for (const s of sent) s.window.pending -= s.points;
    // Every sent key comes back from the upsert, its count including what this instance added.
    const seen = new Set<string>();
    for (const row of rows) {
      seen.add(row.key);
      const w = this.windowOf(row.key);
      if (!w) continue;
      w.shared = row.points;
      w.expire = row.expire;
    }
    // A watched key whose row is gone or whose window passed: no one has counted it since.
    for (const key of watch) {
      if (seen.has(key)) continue;
      const w = this.windowOf(key);
      if (w) w.shared = 0;
    }
  }

  private windowOf(key: string): Window | undefined {
    return (key.startsWith(this.writes.prefix) ? this.writes : this.reads).windows.get(key);
  }
}
