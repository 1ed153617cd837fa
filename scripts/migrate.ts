/**
 * Applies every pending migration to DATABASE_URL (or the URL given as the first argument).
 * The service does this itself at start; this is for deploy pipelines and the test template.
 */
import 'reflect-metadata';
import { openOrm } from '../src/db/orm';

async function main() {
  const url = process.argv[2] ?? process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const orm = await openOrm(url);
  await orm.close(true);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
