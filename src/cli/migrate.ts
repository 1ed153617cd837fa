/**
 * Applies every pending migration, then exits. The service does this itself at start; this is
 * for deploy pipelines (run it before rolling out instances) and the test template.
 *   npm run migrate                 # the configured database: DATABASE_URL, else the embedded one under DATA_DIR
 *   npm run migrate -- <url>        # another database
 * In the Docker image: `npm run migrate` runs dist/cli/migrate.js.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { loadConfig, type Config } from '../config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';
import { openOrm } from '../db/orm';
import { migrationsList } from '../db/migrations';
import { describeStartupError, startupContextOf } from '../startup-error';
import { commandLogger, say } from './command-runner';
import { appliedMigrationCount } from './migrate.repository';

async function main(): Promise<void> {
  const given: string | undefined = process.argv[2];
  let config: Config | undefined;
  let embedded: EmbeddedDatabase | null = null;
  try {
    let url: string | undefined = given;
    if (!url) {
      config = loadConfig();
      url = config.DATABASE_URL;
      if (!url) {
        embedded = await startEmbeddedPostgres(join(config.DATA_DIR, 'postgres'), commandLogger(config));
        url = embedded.url;
      }
    }
    const orm = await openOrm(url);
    const applied = await appliedMigrationCount(orm.em);
    await orm.close(true);
    say(`migrations: ${applied} of ${migrationsList.length} applied; the database is up to date`);
  } catch (err) {
    process.stderr.write(`migrate failed: ${describeStartupError(err, { ...startupContextOf(config), databaseUrl: given ?? config?.DATABASE_URL })}\n`);
    process.exitCode = 1;
  } finally {
    if (embedded) await embedded.stop();
  }
}

void main();
