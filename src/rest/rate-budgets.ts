/** What one request's count says: whether it may go on, and what its `RateLimit` headers report. */
export interface Count {
  allowed: boolean;
  /** Requests left in the budget after this one. */
  remaining: number;
  /** Milliseconds until the budget is whole again (the header's `reset`). */
  resetMs: number;
  /** When refused: milliseconds until one request is allowed again (`Retry-After`). */
  retryMs: number;
}

/**
 * One budget (reads or writes), counted synchronously: the request goes on, or is refused, from
 * the count's answer at once. `take` answers null while the counter cannot decide (the shared
 * store is unreachable): the request is let through without headers.
 */
export interface Budget {
  readonly limit: number;
  /** `RateLimit-Policy`'s value, made once. */
  readonly policy: string;
  take(key: string, now: number): Count | null;
}

/** Both budgets and their life: `flush` settles what is pending with the shared store, `stop` ends it. */
export interface RateBudgets {
  reads: Budget;
  writes: Budget;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export const WINDOW_MS = 60_000;

export const policyOf = (limit: number): string => `${limit};w=${WINDOW_MS / 1000}`;
