import type { NextFunction, Request, Response } from 'express';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import type { Logger } from '../logger';

const WINDOW_SECONDS = 60;

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/**
 * Per-user request budgets (per address when anonymous), one for reads and one for writes,
 * counted in a Postgres table so every instance shares them. A failing store lets the request
 * through and logs: an outage of the counter must not take the API down.
 */
export function createRateLimiter(config: Config, orm: Orm, logger: Logger) {
  const knex = orm.em.getKnex();
  const common = { storeClient: knex, storeType: 'knex', tableName: 'rate_limits', tableCreated: true, duration: WINDOW_SECONDS, clearExpiredByTimeout: false };
  const reads = new RateLimiterPostgres({ ...common, keyPrefix: 'r', points: config.RATE_LIMIT_READS_PER_MINUTE });
  const writes = new RateLimiterPostgres({ ...common, keyPrefix: 'w', points: config.RATE_LIMIT_WRITES_PER_MINUTE });

  return async function rateLimit(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!config.RATE_LIMIT_ENABLED) return next();
    const limiter = isRead(req.method) ? reads : writes;
    const limit = limiter.points;
    const key = req.auth?.actor ? `u:${req.auth.actor.userId}` : `ip:${req.ip ?? 'unknown'}`;
    const setHeaders = (r: RateLimiterRes) => {
      const reset = Math.max(0, Math.ceil(r.msBeforeNext / 1000));
      res.setHeader('RateLimit-Policy', `${limit};w=${WINDOW_SECONDS}`);
      res.setHeader('RateLimit', `limit=${limit}, remaining=${Math.max(0, r.remainingPoints)}, reset=${reset}`);
      return reset;
    };
    try {
      const r = await limiter.consume(key, 1);
      setHeaders(r);
      next();
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const reset = setHeaders(err);
        res.setHeader('Retry-After', String(Math.max(1, reset)));
        res.status(429).json({ error: 'rate_limited', detail: `Too many requests; retry in ${Math.max(1, reset)} s` });
        return;
      }
      logger.warn({ err }, 'rate limit store unavailable; request allowed');
      next();
    }
  };
}
