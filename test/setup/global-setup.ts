import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/logger';
import { startEmbeddedPostgres } from '../../src/db/embedded';
import { execFileSync } from 'node:child_process';
import { adminQuery, databaseUrl } from './db';
import { scratchDir } from './scratch-dir';

/**
 * Starts one PostgreSQL for the run (embedded, unless TEST_DATABASE_URL names a server), and
 * migrates a template database once; every test file clones it (test/helpers/app.ts).
 */
export default async function globalSetup(): Promise<void> {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn');
  // Every temporary directory of the run, in this process, the test workers (which inherit the
  // environment) and the processes they start: node's tmpdir() and Chromium read TMPDIR.
  process.env.TMPDIR = scratchDir();
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'im-test-pg-'));
    // A cluster for one run, thrown away after it: nothing need reach the disk before it answers.
    // Without the flushes a clone of the template and each commit cost a fraction as much, and
    // creating the cluster (initdb, before any test can start) takes under half the time.
    const settings = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };
    const pg = await startEmbeddedPostgres(dir, logger, { persistent: false, database: 'postgres', keepSignalHandlers: true, settings, noSync: true });
    (globalThis as { __IM_PG__?: unknown }).__IM_PG__ = pg;
    adminUrl = databaseUrl(pg.url, 'postgres');
  }
  const root = join(__dirname, '..', '..');
  // The tests that start the service as its own process run the compiled dist/main.js, as
  // production does (test/helpers/service-process.ts): compiled here when src is newer.
  execFileSync(process.execPath, ['scripts/build-service-if-stale.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const template = `im_tpl_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `create database "${template}"`);
  // Migrated in a child process: MikroORM keeps metadata in a process global that would leak
  // into the test sandboxes of this process (mikro-orm issue 3783).
  execFileSync(process.execPath, ['dist/cli/migrate.js', databaseUrl(adminUrl, template)], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  // Where test files record the routes whose success they saw (test/helpers/response-conformance.ts).
  process.env.IM_TEST_CONFORMANCE_DIR = mkdtempSync(join(tmpdir(), 'im-conformance-'));
  process.env.IM_TEST_ADMIN_URL = adminUrl;
  process.env.IM_TEST_TEMPLATE = template;
}
