import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_MIN_SCORE } from './domain/matching/local-ranker';

/** An empty value counts as unset, so `FOO=` in a .env file does not fail start-up. */
const blankAsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalUrl = z.preprocess(blankAsUnset, z.url().optional());

const intFrom = (def: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(def);

const boolFrom = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Every setting the service reads from its environment, validated once at start-up. */
const envSchema = z.object({
  PORT: intFrom(3001, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalUrl,
  /** The web client's origin; invitation mails link to its /sign-in page. Unset: the mail explains the API sign-in. */
  WEB_APP_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  QDRANT_URL: optionalUrl,
  QDRANT_API_KEY: z.string().optional(),
  QDRANT_COLLECTION: z.string().min(1).default('intents'),
  /** The collection of index items (the earlier route group), apart from the intents. */
  QDRANT_ITEMS_COLLECTION: z.string().min(1).default('index_items'),
  SESSION_SECRET: z.preprocess(blankAsUnset, z.string().min(32, 'must be at least 32 characters').optional()),
  EARLY_ACCESS: z.string().default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (one readable line per entry) or `json` (one object per line); unset: pretty on a terminal, JSON elsewhere. */
  LOG_FORMAT: z.preprocess(blankAsUnset, z.enum(['pretty', 'json']).optional()),
  /** Logs every request at info, successes included (otherwise 2xx and 3xx are debug lines). */
  LOG_REQUESTS: boolFrom(false),
  /**
   * Runs each REST read's operation with graphql-js as well as compiled, and fails the request
   * when the two answers differ (ADR 0130): a self-check the test suite turns on; it doubles a
   * read's execution.
   */
  REST_EXECUTOR_CHECK: boolFrom(false),
  /**
   * Comma-separated origins browsers may call the API from (REST, GraphQL, its WebSocket and
   * the event stream); `*` allows any. Unset: the origin of WEB_APP_URL when set, else none.
   */
  CORS_ORIGINS: z.preprocess(blankAsUnset, z.string().optional()),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`; unset, it is public. */
  METRICS_TOKEN: z.preprocess(blankAsUnset, z.string().min(16, 'must be at least 16 characters').optional()),
  EVENTS_KEEPALIVE_MS: intFrom(15_000, 100, 3_600_000),
  /** An event stream whose client has not taken a frame for this long is cut off (it resumes by id). */
  EVENTS_SLOW_CLIENT_MS: intFrom(30_000, 100, 3_600_000),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Intro Match <no-reply@localhost>'),
  RATE_LIMIT_READS_PER_MINUTE: intFrom(1200, 1, 10_000_000),
  RATE_LIMIT_WRITES_PER_MINUTE: intFrom(600, 1, 10_000_000),
  RATE_LIMIT_ENABLED: boolFrom(true),
  /** Where request budgets are counted: each instance on its own (memory), or shared by all in PostgreSQL. */
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
  /** With RATE_LIMIT_STORE=postgres: how often each instance adds its counts to the shared rows and reads the others'. */
  RATE_LIMIT_FLUSH_MS: intFrom(250, 10, 60_000),
  /** How long an instance believes a verified session or API key without the database (0: always ask). */
  AUTH_CACHE_TTL_MS: intFrom(5_000, 0, 60_000),
  AUTH_CACHE_MAX_ENTRIES: intFrom(10_000, 1, 1_000_000),
  /** Seconds a command line waits between polls of a device login (RFC 8628 `interval`). */
  DEVICE_POLL_INTERVAL_S: intFrom(5, 1, 60),
  UPLOAD_MAX_BYTES: intFrom(5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  TRUST_PROXY: boolFrom(false),
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  OPENAI_EMBEDDING_MODEL: z.string().default('text-embedding-3-small'),
  /** Retries of one provider call answered 429 or 5xx (or not answered), with back-off and Retry-After. */
  OPENAI_MAX_RETRIES: intFrom(3, 0, 10),
  OPPORTUNITY_TTL_DAYS: intFrom(14, 1, 3650),
  SHUTDOWN_TIMEOUT_MS: intFrom(10_000, 0, 600_000),
  /** In-process vector index: exact search, HNSW, or exact per network until VECTOR_EXACT_MAX intents. */
  VECTOR_INDEX_MODE: z.enum(['auto', 'exact', 'hnsw']).default('auto'),
  VECTOR_EXACT_MAX: intFrom(5_000, 1, 10_000_000),
  /** Discover leaves out candidates scoring below this (the score means the same in every query). */
  MATCH_MIN_SCORE: z.coerce.number().min(0).max(1).default(DEFAULT_MIN_SCORE),
  /** How often an in-process index picks up changes other instances made (0: never). */
  MATCH_SYNC_MS: intFrom(5_000, 0, 3_600_000),
  /** Starts no background workers (job queue) when false; tests that do not need them start faster. */
  JOBS_ENABLED: boolFrom(true),
  /** Lets the web fetcher reach loopback (127.0.0.0/8, ::1) so tests can serve pages locally. Never on in production. */
  WEB_FETCH_ALLOW_LOOPBACK_UNSAFE: boolFrom(false),
  WEB_FETCH_TIMEOUT_MS: intFrom(10_000, 100, 120_000),
  WEB_FETCH_MAX_BYTES: intFrom(2 * 1024 * 1024, 1024, 50 * 1024 * 1024),
  /** Comma-separated domains a DID session's CACAO may name; empty accepts any. */
  DID_SESSION_DOMAINS: z.string().default(''),
  NODE_ENV: z.string().default('development'),
  /** Limits on documents GraphQL clients send (the REST routes' own operations are not limited). */
  GRAPHQL_MAX_DEPTH: intFrom(15, 1, 1000),
  GRAPHQL_MAX_ALIASES: intFrom(30, 0, 100_000),
  GRAPHQL_MAX_COST: intFrom(5000, 1, 10_000_000),
  GRAPHQL_MAX_TOKENS: intFrom(5000, 100, 1_000_000),
  /** Unset: on, except with NODE_ENV=production. */
  GRAPHQL_INTROSPECTION: z.preprocess(blankAsUnset, z.enum(['true', 'false', '1', '0', 'yes', 'no']).optional()),
  /** A persisted query manifest (JSON); when set, GraphQL clients may run only the operations it lists. */
  GRAPHQL_TRUSTED_OPERATIONS: z.preprocess(blankAsUnset, z.string().optional()),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'SESSION_SECRET' | 'EARLY_ACCESS' | 'DATA_DIR' | 'PUBLIC_URL' | 'DID_SESSION_DOMAINS' | 'GRAPHQL_INTROSPECTION' | 'CORS_ORIGINS'> {
  GRAPHQL_INTROSPECTION: boolean;
  DATA_DIR: string;
  PUBLIC_URL: string;
  SESSION_SECRET: string;
  /** Lower-cased emails and wallet addresses with early access. */
  EARLY_ACCESS: Set<string>;
  /** Domains a DID session may be made for (empty: any). */
  DID_SESSION_DOMAINS: Set<string>;
  /** Browser origins allowed to call the API (`*` among them allows any); empty: none but the service's own pages. */
  CORS_ORIGINS: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads the secret from DATA_DIR, creating one the first time, so sessions survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** An origin is scheme://host[:port]; a value with a path or a typo must not silently allow nothing. */
function corsOriginsOf(list: string | undefined, webAppUrl: string | undefined): string[] {
  if (list === undefined) return webAppUrl ? [new URL(webAppUrl).origin] : [];
  const origins: string[] = [];
  const problems: string[] = [];
  for (const raw of list.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (raw === '*') {
      origins.push('*');
      continue;
    }
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username) {
      problems.push(`CORS_ORIGINS: ${JSON.stringify(raw)} is not an origin (scheme://host[:port], no path)`);
      continue;
    }
    origins.push(url.origin);
  }
  if (problems.length) throw new ConfigError(problems);
  return origins;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`),
    );
  }
  const e = parsed.data;
  if (e.QDRANT_COLLECTION === e.QDRANT_ITEMS_COLLECTION) {
    throw new ConfigError(['QDRANT_ITEMS_COLLECTION: must differ from QDRANT_COLLECTION (item vectors must not mix with intent vectors)']);
  }
  const corsOrigins = corsOriginsOf(e.CORS_ORIGINS, e.WEB_APP_URL);
  const dataDir = resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    ...e,
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    WEB_APP_URL: e.WEB_APP_URL?.replace(/\/+$/, ''),
    SESSION_SECRET: e.SESSION_SECRET ?? persistedSecret(dataDir),
    GRAPHQL_INTROSPECTION: e.GRAPHQL_INTROSPECTION === undefined ? e.NODE_ENV !== 'production' : ['true', '1', 'yes'].includes(e.GRAPHQL_INTROSPECTION),
    CORS_ORIGINS: corsOrigins,
    DID_SESSION_DOMAINS: new Set(
      e.DID_SESSION_DOMAINS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    EARLY_ACCESS: new Set(
      e.EARLY_ACCESS.split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  };
}
