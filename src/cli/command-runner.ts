import 'reflect-metadata';
import { loadConfig, type Config } from '../config';
import { createLogger, type Logger } from '../logger';
import { startRuntime, type Runtime } from '../runtime';
import { describeStartupError, startupContextOf } from '../startup-error';

/** A maintenance command's config: the service's, without HTTP on a public port or background workers. */
export function commandConfig(): Config {
  return { ...loadConfig(), PORT: 0, HOST: '127.0.0.1', JOBS_ENABLED: false };
}

/** Commands log warnings only unless LOG_LEVEL asks for more: their own output is the progress. */
export function commandLogger(config: Config): Logger {
  return createLogger(process.env.LOG_LEVEL ? config.LOG_LEVEL : 'warn', undefined, config.LOG_FORMAT);
}

/** Writes one line of the command's own output. */
export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * Runs a maintenance command (migrate, reindex, seed) with the whole service started against
 * the configured database, and stops it after. A failure prints one readable cause, as the
 * service does at start-up (src/startup-error.ts), and exits 1.
 */
export function runCommand(name: string, body: (runtime: Runtime, logger: Logger) => Promise<void>): void {
  let config: Config | undefined;
  void (async () => {
    config = commandConfig();
    const logger = commandLogger(config);
    const runtime = await startRuntime(config, logger);
    try {
      await body(runtime, logger);
    } finally {
      await runtime.stop();
    }
  })().catch((err) => {
    process.stderr.write(`${name} failed: ${describeStartupError(err, startupContextOf(config))}\n`);
    process.exit(1);
  });
}
