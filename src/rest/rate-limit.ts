import type { NextFunction, Request, Response } from 'express';
import type * as RateLimiterFlexible from 'rate-limiter-flexible';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import type { Logger } from '../logger';
import { deleteExpiredRateLimits, rateLimitStoreClient } from './rate-limit.repository';

const WINDOW_SECONDS = 60;

// Loaded with the first budget: a process with RATE_LIMIT_ENABLED=false (tests, a service behind
// its own limiter) never counts, and never loads it.
const limiters = (): typeof RateLimiterFlexible => require('rate-limiter-flexible') as typeof RateLimiterFlexible;

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

/** One budget, counted where RATE_LIMIT_STORE says. */
function budget(config: Config, orm: Orm, keyPrefix: string, points: number): RateLimiterAbstract {
  const { RateLimiterMemory, RateLimiterPostgres } = limiters();
  if (config.RATE_LIMIT_STORE === 'memory') return new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });
  return new RateLimiterPostgres({
    storeClient: rateLimitStoreClient(orm.em),
    storeType: 'knex',
    tableName: 'rate_limits',
    tableCreated: true,
    duration: WINDOW_SECONDS,
    clearExpiredByTimeout: false,
    keyPrefix,
    points,
  });
}

/**
 * Per-user request budgets (per address when anonymous), one for reads and one for writes.
 * By default each instance counts in its own memory (no shared row that every request of a
 * caller updates; with N instances behind a balancer a caller gets up to N times the budget);
 * RATE_LIMIT_STORE=postgres counts in a table every instance shares (exact, one UPSERT per
 * request). A failing store lets the request through and logs: an outage of the counter must
 * not take the API down.
 */
export function createRateLimiter(config: Config, orm: Orm, logger: Logger) {
  let budgets: { reads: RateLimiterAbstract; writes: RateLimiterAbstract } | null = null;

  // Off (a setting read per request), it answers at once, without a promise to settle.
  return function rateLimit(req: Request, res: Response, next: NextFunction): void | Promise<void> {
    return config.RATE_LIMIT_ENABLED ? limited(req, res, next) : next();
  };

  /**
   * Not an async function: the request goes on from the store's answer directly, without a
   * promise of its own for the fast lane to watch (each promise costs every async-local store).
   */
  function limited(req: Request, res: Response, next: NextFunction): void {
    budgets ??= { reads: budget(config, orm, 'r', config.RATE_LIMIT_READS_PER_MINUTE), writes: budget(config, orm, 'w', config.RATE_LIMIT_WRITES_PER_MINUTE) };
    const limiter = isRead(req) ? budgets.reads : budgets.writes;
    const limit = limiter.points;
    const key = req.auth?.actor ? `u:${req.auth.actor.userId}` : `ip:${req.ip ?? 'unknown'}`;
    const setHeaders = (r: RateLimiterRes) => {
      const reset = Math.max(0, Math.ceil(r.msBeforeNext / 1000));
      res.setHeader('RateLimit-Policy', `${limit};w=${WINDOW_SECONDS}`);
      res.setHeader('RateLimit', `limit=${limit}, remaining=${Math.max(0, r.remainingPoints)}, reset=${reset}`);
      return reset;
    };
    const refused = (err: unknown) => {
      if (err instanceof limiters().RateLimiterRes) {
        const reset = setHeaders(err);
        res.setHeader('Retry-After', String(Math.max(1, reset)));
        res.status(429).json({ error: 'rate_limited', detail: `Too many requests; retry in ${Math.max(1, reset)} s` });
        return;
      }
      logger.warn({ err }, 'rate limit store unavailable; request allowed');
      next();
    };
    let counted: Promise<RateLimiterRes>;
    try {
      counted = limiter.consume(key, 1);
    } catch (err) {
      refused(err);
      return;
    }
    counted.then((r) => {
      // What this or the rest of the chain throws goes on as an error, as Express passes a
      // handler's; nothing is left to reject unhandled.
      try {
        setHeaders(r);
        next();
      } catch (err) {
        next(err);
      }
    }, refused);
  }
}

/** Deletes counters whose window has passed; they would otherwise keep one row per caller ever seen. */
export async function pruneRateLimits(orm: Orm): Promise<number> {
  return deleteExpiredRateLimits(orm.em, Date.now());
}

export const RATE_LIMIT_PRUNE_JOB = 'rate-limits.prune';
