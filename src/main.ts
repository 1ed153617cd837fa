import 'reflect-metadata';
import { loadConfig, type Config } from './config';
import { createLogger } from './logger';
import type * as RuntimeModule from './runtime';
import { describeStartupError, startupContextOf } from './startup-error';

async function main(): Promise<void> {
  let config: Config | undefined;
  try {
    config = loadConfig();
    const logger = createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT);
    // The service's modules (about 2 s of loading) load once the settings have parsed: a bad
    // setting is reported without them.
    const { startRuntime } = require('./runtime') as typeof RuntimeModule;
    const runtime = await startRuntime(config, logger);

    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      const timer = setTimeout(() => {
        logger.error('shutdown timed out; exiting');
        process.exit(1);
      }, config!.SHUTDOWN_TIMEOUT_MS);
      timer.unref();
      runtime
        .stop()
        .then(() => process.exit(0))
        .catch((err) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        });
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
    // A crash still stops the embedded database, so the next start finds its data folder free.
    process.once('uncaughtException', (err) => {
      logger.fatal({ err }, 'uncaught exception');
      shutdown('uncaughtException');
    });
  } catch (err) {
    process.stderr.write(`Start-up failed: ${describeStartupError(err, startupContextOf(config))}\n`);
    // 78 (EX_CONFIG) for a bad setting, as before; 1 for everything else.
    process.exit(config ? 1 : 78);
  }
}

void main();
