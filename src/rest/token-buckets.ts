import { type Budget, type Count, policyOf } from './rate-budgets';

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Per-instance token buckets: each key holds up to `limit` requests and earns them back at
 * `limit` per window, continuously (no doubled burst at a window's edge, as fixed windows allow).
 * Counting is a map lookup and some arithmetic, with no promise and no timer per key. A bucket
 * that has refilled is the same as none, so such buckets are dropped once per window: memory
 * holds only the callers of the last window.
 */
export class TokenBuckets implements Budget {
  readonly policy: string;
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private sweptAt = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {
    this.policy = policyOf(limit);
    this.perMs = limit / windowMs;
  }

  take(key: string, now: number): Count {
    if (now - this.sweptAt >= this.windowMs) this.sweep(now);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.limit, at: now };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.limit, bucket.tokens + (now - bucket.at) * this.perMs);
      bucket.at = now;
    }
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return {
      allowed,
      remaining: Math.floor(bucket.tokens),
      resetMs: (this.limit - bucket.tokens) / this.perMs,
      retryMs: allowed ? 0 : (1 - bucket.tokens) / this.perMs,
    };
  }

  /** How many callers are held (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [key, b] of this.buckets) if (b.tokens + (now - b.at) * this.perMs >= this.limit) this.buckets.delete(key);
  }
}
