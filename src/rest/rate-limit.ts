import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import type { Logger } from '../logger';
import { type RateBudgets, WINDOW_MS } from './rate-budgets';
import { deleteExpiredRateLimits } from './rate-limit.repository';
import { SharedStore } from './shared-windows';
import { TokenBuckets } from './token-buckets';

/** Whether the document's chosen operation is a mutation (the first one when none is named). */
export function isGraphQLMutation(body: unknown): boolean {
  const b = body as { query?: unknown; operationName?: unknown } | undefined;
  if (!b || typeof b.query !== 'string') return false;
  // Comments and strings cannot hide an operation keyword at the start of a definition line in
  // practice; a misread only moves the request to the other budget.
  const source = b.query.replace(/#[^\n]*/g, '');
  const ops = [...source.matchAll(/(?:^|[}\s])(query|mutation|subscription)\b\s*([_A-Za-z][_0-9A-Za-z]*)?/g)].map((m) => ({ kind: m[1], name: m[2] }));
  const chosen = typeof b.operationName === 'string' ? ops.find((o) => o.name === b.operationName) : ops[0];
  return chosen?.kind === 'mutation';
}

function isRead(req: Request): boolean {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return true;
  // POST /graphql carries reads too: only a mutation spends the write budget.
  return req.baseUrl === '/graphql' && !isGraphQLMutation(req.body);
}

/**
 * The two budgets, counted where RATE_LIMIT_STORE says. By default each instance counts in its own
 * memory (token buckets: no shared row that every request of a caller updates; with N instances
 * behind a balancer a caller gets up to N times the budget). RATE_LIMIT_STORE=postgres counts in
 * fixed windows that every instance shares through table rate_limits, written in batches every
 * RATE_LIMIT_FLUSH_MS (shared-windows.ts says how exact that is).
 */
export function createRateBudgets(config: Config, orm: Orm, logger: Logger): RateBudgets {
  const reads = config.RATE_LIMIT_READS_PER_MINUTE;
  const writes = config.RATE_LIMIT_WRITES_PER_MINUTE;
  if (config.RATE_LIMIT_STORE === 'postgres') return new SharedStore(orm, logger, { reads, writes, flushMs: config.RATE_LIMIT_FLUSH_MS });
  return { reads: new TokenBuckets(reads, WINDOW_MS), writes: new TokenBuckets(writes, WINDOW_MS), flush: async () => undefined, stop: async () => undefined };
}

/**
 * Per-user request budgets (per address when anonymous), one for reads and one for writes. The
 * count answers synchronously, so the request goes on (or is refused) without a promise. While a
 * shared store cannot be reached the request goes on without headers (the store logs it).
 */
export function createRateLimiter(config: Config, budgets: RateBudgets) {
  // Off (a setting read per request), it answers at once.
  return function rateLimit(req: Request, res: Response, next: NextFunction): void {
    if (!config.RATE_LIMIT_ENABLED) return next();
    const budget = isRead(req) ? budgets.reads : budgets.writes;
    const key = req.auth?.actor ? `u:${req.auth.actor.userId}` : `ip:${req.ip ?? 'unknown'}`;
    const count = budget.take(key, Date.now());
    if (!count) return next();
    const reset = Math.ceil(count.resetMs / 1000);
    res.setHeader('RateLimit-Policy', budget.policy);
    res.setHeader('RateLimit', `limit=${budget.limit}, remaining=${count.remaining}, reset=${reset}`);
    if (count.allowed) return next();
    const retry = Math.max(1, Math.ceil(count.retryMs / 1000));
    res.setHeader('Retry-After', String(retry));
    res.status(429).json({ error: 'rate_limited', detail: `Too many requests; retry in ${retry} s` });
  };
}

/** Deletes counters whose window has passed; they would otherwise keep one row per caller ever seen. */
export async function pruneRateLimits(orm: Orm): Promise<number> {
  return deleteExpiredRateLimits(orm.em, Date.now());
}

export const RATE_LIMIT_PRUNE_JOB = 'rate-limits.prune';
