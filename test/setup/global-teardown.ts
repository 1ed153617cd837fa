import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { dropDatabase } from './db';

/**
 * On a run of the whole suite, every route's success response must have been seen (and checked
 * against /api/openapi.json by test/helpers/response-conformance.ts).
 */
function checkCoverage(filtered: boolean): void {
  const dir = process.env.IM_TEST_CONFORMANCE_DIR;
  if (!dir) return;
  const hits = readdirSync(dir).filter((f) => f.startsWith('hits-'));
  const seen = new Set(hits.flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean)));
  rmSync(dir, { recursive: true, force: true });
  // The resilience drills (npm run test:resilience) are not the whole suite.
  if (filtered || process.env.IM_ROUTE_COVERAGE === 'off') return;
  // Loaded here, after the run: the route table pulls in the whole service.
  const { routeTables } = require('../../src/rest/routes') as typeof import('../../src/rest/routes');
  const { openApiPath } = require('../../src/rest/openapi/openapi-document') as typeof import('../../src/rest/openapi/openapi-document');
  const missing = routeTables.flat().map((r) => `${r.method} ${openApiPath(r.path)}`).filter((k) => !seen.has(k));
  if (missing.length) {
    process.exitCode = 1;
    throw new Error(`No test produced a success response of:\n${missing.join('\n')}`);
  }
  process.stdout.write(`\nResponse conformance: a success of each of the ${seen.size} routes was checked against /api/openapi.json\n`);
}

export default async function globalTeardown(globalConfig: { nonFlagArgs?: string[]; testNamePattern?: string; testPathPatterns?: unknown; onlyChanged?: boolean }): Promise<void> {
  const adminUrl = process.env.IM_TEST_ADMIN_URL;
  const template = process.env.IM_TEST_TEMPLATE;
  if (adminUrl && template) await dropDatabase(adminUrl, template).catch(() => undefined);
  const pg = (globalThis as { __IM_PG__?: { stop(): Promise<void> } }).__IM_PG__;
  if (pg) await pg.stop();
  checkCoverage(Boolean(globalConfig.nonFlagArgs?.length || globalConfig.testNamePattern || globalConfig.onlyChanged));
}
