import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createAppServer, type AppServer } from './app';
import type { Config } from './config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded';
import { openOrm } from './db/orm';
import { EventNotifier } from './domain/events/notifier';
import { JobQueue } from './jobs/job-queue';
import type { Logger } from './logger';
import { createServices, type Services } from './services';

export interface Runtime {
  config: Config;
  services: Services;
  server: AppServer;
  /** The origin the HTTP server listens on, e.g. http://127.0.0.1:3001. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the whole service: the database (embedded when DATABASE_URL is unset), migrations,
 * the event listener, the job queue, then HTTP. `stop` undoes it in reverse order.
 */
export async function startRuntime(config: Config, logger: Logger): Promise<Runtime> {
  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const dir = join(config.DATA_DIR, 'postgres');
    if (process.getuid?.() === 0 && dir.startsWith('/root/')) {
      throw new Error(`DATA_DIR: the embedded database cannot live under /root when running as root (PostgreSQL runs as another user); set DATA_DIR elsewhere or set DATABASE_URL`);
    }
    embedded = await startEmbeddedPostgres(dir, logger);
    databaseUrl = embedded.url;
  }
  try {
    return await startOn(config, logger, databaseUrl, embedded);
  } catch (err) {
    // Nothing may outlive a failed start: the embedded database would hold its data folder.
    if (embedded) await embedded.stop().catch(() => undefined);
    throw err;
  }
}

async function startOn(config: Config, logger: Logger, databaseUrl: string, embedded: EmbeddedDatabase | null): Promise<Runtime> {
  const orm = await openOrm(databaseUrl, logger);
  const notifier = new EventNotifier(databaseUrl, logger);
  await notifier.start();
  const jobs = new JobQueue(databaseUrl, orm, logger, config.JOBS_ENABLED);
  const services = createServices({ config, logger, orm, notifier, jobs });
  await services.start();
  await jobs.start();
  const server = await createAppServer(services);
  await new Promise<void>((resolve, reject) => {
    server.httpServer.once('error', reject);
    server.httpServer.listen(config.PORT, config.HOST, () => resolve());
  });
  const addr = server.httpServer.address() as AddressInfo;
  const host = addr.address === '0.0.0.0' || addr.address === '::' ? '127.0.0.1' : addr.address;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
  logger.info({ url, publicUrl: config.PUBLIC_URL }, 'listening');

  let stopping: Promise<void> | null = null;
  return {
    config,
    services,
    server,
    url,
    stop() {
      stopping ??= (async () => {
        await server.close();
        for (const close of [...services.closers].reverse()) {
          try {
            await close();
          } catch (err) {
            logger.warn({ err }, 'shutdown step failed');
          }
        }
        await jobs.stop();
        await notifier.stop();
        await orm.close(true);
        if (embedded) await embedded.stop();
      })();
      return stopping;
    },
  };
}
