/**
 * Rebuilds the vector indexes from Postgres (the in-process ones are rebuilt at every start;
 * this is for Qdrant, or after changing the embedder): intents, and index items of the earlier
 * route group.
 *   npm run reindex            # reuse stored vectors whose embedder and text are current
 *   npm run reindex -- --embed # embed every intent and every item's default embedding again
 */
import 'reflect-metadata';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startRuntime } from '../src/runtime';

async function main() {
  const config = { ...loadConfig(), PORT: 0, HOST: '127.0.0.1', JOBS_ENABLED: false };
  const logger = createLogger(config.LOG_LEVEL);
  const runtime = await startRuntime(config, logger);
  try {
    const embed = process.argv.includes('--embed');
    await runtime.services.matching.indexer.idle();
    await runtime.services.legacy.indexer.idle();
    const result = await runtime.services.matching.indexer.reindex({ embed });
    const items = await runtime.services.legacy.indexer.reindex({ embed });
    process.stdout.write(`${JSON.stringify({ index: runtime.services.vectorIndex.name, ...result, items })}\n`);
  } finally {
    await runtime.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
