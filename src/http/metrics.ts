import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { safeEqual } from '../domain/auth/secrets';
import type { Logger } from '../logger';

/** What the gauges read when Prometheus scrapes; each source is asked then, not kept up to date. */
export interface MetricSources {
  /** Server-sent streams open on this instance (events and the earlier group's updates). */
  openStreams(): number;
  /** graphql-ws sockets open on this instance. */
  openSockets(): number;
  /** Jobs per queue and state, shared by every instance. */
  queueDepth(): Promise<Array<{ queue: string; state: string; count: number }>>;
  /** Intents and index items waiting for a vector. */
  embeddingBacklog(): Promise<{ intents: number; items: number }>;
}

/** Seconds; from a cached read to a discover over a large network or a slow provider call. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The service's Prometheus metrics, one registry per process (tests start several services in
 * one process). Latency is labelled by route template (`/api/intents/:id`), never the raw path,
 * so the number of series stays bounded by the route table.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly latency: Histogram<'method' | 'route' | 'status'>;

  constructor(sources: MetricSources, logger: Logger) {
    collectDefaultMetrics({ register: this.registry });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its response being written, by route template',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    new Gauge({
      name: 'intro_match_sse_streams_open',
      help: 'Server-sent event streams open on this instance',
      registers: [this.registry],
      collect() {
        this.set(sources.openStreams());
      },
    });
    new Gauge({
      name: 'intro_match_graphql_ws_sockets_open',
      help: 'graphql-ws WebSocket connections open on this instance',
      registers: [this.registry],
      collect() {
        this.set(sources.openSockets());
      },
    });
    new Gauge({
      name: 'intro_match_job_queue_depth',
      help: 'Background jobs by queue and state (created: waiting; retry; active), counted in the shared queue',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          for (const row of await sources.queueDepth()) this.set({ queue: row.queue, state: row.state }, row.count);
        } catch (err) {
          logger.warn({ err }, 'metrics: job queue depth unavailable');
        }
      },
    });
    new Gauge({
      name: 'intro_match_embedding_backlog',
      help: 'Records waiting for a vector: intents without a current one, index items without their default embedding',
      labelNames: ['kind'],
      registers: [this.registry],
      async collect() {
        try {
          const { intents, items } = await sources.embeddingBacklog();
          this.set({ kind: 'intent' }, intents);
          this.set({ kind: 'item' }, items);
        } catch (err) {
          logger.warn({ err }, 'metrics: embedding backlog unavailable');
        }
      },
    });
  }

  /**
   * Times every request to its `finish`. Streams are left out: their duration is how long a
   * client listened, which would drown the latency of everything else on the route.
   */
  timer(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        if (String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) return;
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        this.latency.observe({ method: req.method, route: routeTemplate(req, res), status: String(res.statusCode) }, seconds);
      });
      next();
    };
  }

  /** GET /metrics; with a token configured, only a caller presenting it (docs/adr/0101-metrics-exposure.md). */
  handler(token: string | undefined): RequestHandler {
    return async (req: Request, res: Response, next: NextFunction) => {
      if (token) {
        const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
        if (!safeEqual(given, token)) {
          res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
          res.status(401).json({ error: 'unauthorized', detail: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' });
          return;
        }
      }
      try {
        const body = await this.registry.metrics();
        res.setHeader('Content-Type', this.registry.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.send(body);
      } catch (err) {
        next(err);
      }
    };
  }
}

/** The route as registered (`/api/intents/:id`); mounted handlers by their mount path; nothing matched: `unmatched`. */
export function routeTemplate(req: Request, res: Response): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  if (res.statusCode === 404 || !req.baseUrl) return 'unmatched';
  return req.baseUrl;
}
