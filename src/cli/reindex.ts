/**
 * Rebuilds the vector indexes from Postgres: intents, and index items of the earlier route
 * group. On Qdrant each is built in a new collection and the alias moves when it is full, so
 * search never goes empty; the service may keep running (with DATABASE_URL; an embedded
 * database belongs to one process at a time). In-process indexes are rebuilt at every start,
 * so there this is for `--embed`, after changing the embedder.
 *   npm run reindex             # reuse stored vectors whose embedder and text are current
 *   npm run reindex -- --embed  # embed every intent and every item's default embedding again
 * In the Docker image: `npm run reindex` runs dist/cli/reindex.js.
 */
import type { ReindexProgress } from '../domain/matching/intent-indexer.service';
import { runCommand, say } from './command-runner';

/** One line per batch: `intents 500/1234 (41%)`. */
const progress = (what: string) => (p: ReindexProgress) =>
  say(`${what} ${p.done}/${p.total}${p.total ? ` (${Math.floor((p.done / p.total) * 100)}%)` : ''}`);

runCommand('reindex', async (runtime) => {
  const { services } = runtime;
  const embed = process.argv.includes('--embed');
  // The start-up catch-up of both indexers finishes first, so the rebuild reads settled rows.
  await services.matching.indexer.idle();
  await services.legacy.indexer.idle();
  say(`reindex into ${services.vectorIndex.name}${embed ? ', embedding everything again' : ''}`);
  const intents = await services.matching.indexer.reindex({ embed, onProgress: progress('intents') });
  const items = await services.legacy.indexer.reindex({ embed, onProgress: progress('items') });
  say(`done: ${intents.indexed} intents indexed, ${intents.pending} waiting for an embedding; ${items.items} items, ${items.pending} waiting`);
});
