import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startRuntime, type Runtime } from '../../src/runtime';
import type { Services } from '../../src/services';
import { cloneDatabase, databaseUrl, dropDatabase } from '../setup/db';
import { watchConformance } from './response-conformance';

export interface TestApp {
  runtime: Runtime;
  services: Services;
  /** Base URL of the running HTTP server. */
  url: string;
  /** A supertest agent for the running server (real HTTP over loopback). */
  http: supertest.Agent;
  databaseName: string;
  databaseUrl: string;
  dataDir: string;
  /** Runs `fn` with a request-scoped EntityManager, as a request handler would. */
  withEm<T>(fn: (em: EntityManager) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function lineCollector(lines: Array<Record<string, any>>): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      for (const raw of chunk.split('\n')) if (raw.trim()) lines.push(JSON.parse(raw));
    },
  };
}

export function testEnv(): { adminUrl: string; template: string } {
  const adminUrl = process.env.IM_TEST_ADMIN_URL;
  const template = process.env.IM_TEST_TEMPLATE;
  if (!adminUrl || !template) throw new Error('test/setup/global-setup.ts did not run');
  return { adminUrl, template };
}

/** Clones a fresh database from the migrated template and creates it (no server). */
export async function cloneTestDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const { adminUrl, template } = testEnv();
  const name = `im_t_${randomBytes(6).toString('hex')}`;
  await cloneDatabase(adminUrl, template, name);
  return { name, url: databaseUrl(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

/**
 * Starts the real service on a fresh clone of the template database, listening on a free
 * loopback port. `env` overrides configuration (jobs, rate limits and provider retries are off unless asked for).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  db?: { name: string; url: string; drop(): Promise<void> },
  opts: { logLines?: Array<Record<string, any>> } = {},
): Promise<TestApp> {
  const database = db ?? (await cloneTestDatabase());
  const dataDir = mkdtempSync(join(tmpdir(), 'im-test-data-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://localhost:3001',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JOBS_ENABLED: 'false',
    RATE_LIMIT_ENABLED: 'false',
    // Provider failures answer at once in tests; test/ai/provider-retries.test.ts turns retries on.
    OPENAI_MAX_RETRIES: '0',
    // Every REST read the suite makes is also run by graphql-js, and must answer the same (ADR 0130).
    REST_EXECUTOR_CHECK: 'true',
    ...env,
    DATABASE_URL: database.url,
  });
  // `logLines` collects every line the service logs, parsed (set LOG_LEVEL in `env` to see more than nothing).
  const logger = opts.logLines ? createLogger(config.LOG_LEVEL, lineCollector(opts.logLines)) : createLogger(config.LOG_LEVEL);
  const runtime = await startRuntime(config, logger);
  const services = runtime.services;
  // Every response of the suite is checked against the OpenAPI document (the document cannot drift).
  const conformance = await watchConformance(runtime.server.httpServer);
  return {
    runtime,
    services,
    url: runtime.url,
    http: supertest.agent(runtime.url),
    databaseName: database.name,
    databaseUrl: database.url,
    dataDir,
    withEm: (fn) => RequestContext.create(services.orm.em, () => fn(services.orm.em as EntityManager)),
    async close() {
      await runtime.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
      if (conformance.violations.length) {
        throw new Error(`Responses that do not match /api/openapi.json:\n${[...new Set(conformance.violations)].join('\n')}`);
      }
    },
  };
}
