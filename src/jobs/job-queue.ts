import { RequestContext } from '@mikro-orm/core';
import type PgBoss from 'pg-boss';
import type { Orm } from '../db/orm';
import type { Logger } from '../logger';
import { jobTablePresent, pendingJobCounts } from './job-queue.repository';

export interface JobDefinition<T extends object> {
  name: string;
  /** Runs with its own EntityManager; a throw marks the job failed and pg-boss retries it. */
  handler: (data: T) => Promise<void>;
  /** Cron (UTC) for a recurring job; pg-boss keeps one schedule across instances. */
  cron?: string;
  retryLimit?: number;
  /** How often an idle worker polls, in seconds (pg-boss minimum 0.5). */
  pollingIntervalSeconds?: number;
  batchSize?: number;
  /**
   * pg-boss queue policy. `stately` keeps at most one queued and one running job per
   * singletonKey, so sending a job that is already waiting is a no-op.
   */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /** Also run once as soon as the queue starts, to catch up on what a restart interrupted. */
  runAtStart?: boolean;
}

/**
 * The Postgres job queue (pg-boss): background work survives crashes and is shared by all
 * instances. Areas register jobs before `start`.
 */
export class JobQueue {
  private queue: PgBoss | null = null;
  private readonly defs = new Map<string, JobDefinition<object>>();
  private started = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly orm: Orm,
    private readonly logger: Logger,
    private readonly enabled: boolean,
  ) {}

  /**
   * pg-boss (and cron-parser with luxon under it) loads when the queue starts, not at import: a
   * process with JOBS_ENABLED=false never starts it. Nothing reaches it before `start`.
   */
  private get boss(): PgBoss {
    if (!this.queue) {
      const PgBossClass = require('pg-boss') as typeof PgBoss;
      this.queue = new PgBossClass({ connectionString: this.databaseUrl, schema: 'pgboss', max: 4 });
      this.queue.on('error', (err) => this.logger.error({ err }, 'job queue error'));
    }
    return this.queue;
  }

  register<T extends object>(def: JobDefinition<T>): void {
    if (this.started) throw new Error(`Job ${def.name} registered after start`);
    this.defs.set(def.name, def as JobDefinition<object>);
  }

  get isRunning(): boolean {
    return this.started;
  }

  async start(): Promise<void> {
    if (!this.enabled || this.started) return;
    await this.boss.start();
    for (const def of this.defs.values()) {
      await this.boss.createQueue(def.name, { name: def.name, retryLimit: def.retryLimit ?? 5, retryBackoff: true, ...(def.policy ? { policy: def.policy } : {}) });
      if (def.cron) await this.boss.schedule(def.name, def.cron, {}, { tz: 'UTC' });
      await this.boss.work<object>(
        def.name,
        { pollingIntervalSeconds: def.pollingIntervalSeconds ?? 2, batchSize: def.batchSize ?? 1 },
        async (jobs) => {
          for (const job of jobs) {
            await RequestContext.create(this.orm.em, () => def.handler(job.data ?? {}));
          }
        },
      );
    }
    this.started = true;
    for (const def of this.defs.values()) if (def.runAtStart) await this.boss.send(def.name, {});
  }

  /** Enqueues a job (after the change it follows has committed). Null when jobs are disabled. */
  async send(name: string, data: object, opts: PgBoss.SendOptions = {}): Promise<string | null> {
    if (!this.started) return null;
    return this.boss.send(name, data, opts);
  }

  /**
   * Jobs per queue and state (waiting, retry, active), across every instance: the queue is in
   * Postgres. Empty when pg-boss never created its schema (jobs disabled everywhere).
   */
  async depth(): Promise<Array<{ queue: string; state: string; count: number }>> {
    if (!(await jobTablePresent(this.orm.em))) return [];
    const rows = await pendingJobCounts(this.orm.em);
    return rows.map((r) => ({ queue: r.name, state: r.state, count: Number(r.count) }));
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
