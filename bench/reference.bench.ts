import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import jwt from 'jsonwebtoken';
import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { Pool } from 'pg';
import { benchSettings, loadTest, median, startBenchService, type Benchmark, type LoadResult, type LoadTarget } from './harness';

/** The columns and JSON of the public profile, as `GET /api/users/:id` answers it. */
const PUBLIC_COLUMNS = 'id, name, intro, avatar, location, socials, created_at, updated_at';
const ACCOUNT_COLUMNS = `${PUBLIC_COLUMNS}, email, wallet_address, timezone, notification_preferences, profile_confirmed_at, onboarding_completed_at`;

type Row = Record<string, any>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const publicJson = (r: Row) => ({
  id: r.id,
  name: r.name,
  intro: r.intro,
  avatar: r.avatar,
  location: r.location,
  socials: (r.socials as Array<{ label: string; value: string }>).map(({ label, value }) => ({ label, value })),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});
const accountJson = (r: Row) => ({
  ...publicJson(r),
  email: r.email,
  walletAddress: r.wallet_address,
  timezone: r.timezone,
  notificationPreferences: { opportunity: r.notification_preferences.opportunity, morningBrief: r.notification_preferences.morningBrief },
  profileConfirmedAt: iso(r.profile_confirmed_at),
  onboardingCompletedAt: iso(r.onboarding_completed_at),
});

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The reference: node:http and `pg` with named (prepared) statements, doing the least the same
 * reads need. `/users/:id` selects the public columns of one user; `/me` verifies the same HS256
 * session token (a secret KeyObject made once), reads the session row (hash, revocation,
 * expiry) and then the account's row, as the service must.
 */
export function startReference(databaseUrl: string, secret: KeyObject): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const userById = async (id: string) =>
    (await pool.query({ name: 'ref_user', text: `select ${PUBLIC_COLUMNS} from users where id = $1`, values: [id] })).rows[0] as Row | undefined;
  const me = async (req: IncomingMessage): Promise<[number, unknown]> => {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!m) return [401, { error: 'unauthenticated' }];
    let claims: jwt.JwtPayload;
    try {
      claims = jwt.verify(m[1], secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    } catch {
      return [401, { error: 'unauthenticated' }];
    }
    const s = (await pool.query({ name: 'ref_session', text: 'select user_id, token_hash, expires_at, revoked_at from sessions where id = $1', values: [claims.sid] })).rows[0];
    const hash = createHash('sha256').update(m[1]).digest('hex');
    if (!s || s.token_hash !== hash || s.revoked_at || s.expires_at.getTime() <= Date.now()) return [401, { error: 'unauthenticated' }];
    const u = (await pool.query({ name: 'ref_me', text: `select ${ACCOUNT_COLUMNS} from users where id = $1`, values: [s.user_id] })).rows[0];
    return u ? [200, { user: accountJson(u) }] : [401, { error: 'unauthenticated' }];
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const handle = async (): Promise<[number, unknown]> => {
      if (url === '/me') return me(req);
      const id = url.startsWith('/users/') ? url.slice(7) : '';
      if (!UUID_RE.test(id)) return [404, { error: 'not_found' }];
      const row = await userById(id);
      return row ? [200, { user: publicJson(row) }] : [404, { error: 'not_found' }];
    };
    handle().then(
      ([status, body]) => send(res, status, body),
      () => send(res, 500, { error: 'internal' }),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://127.0.0.1:${port}`,
        close: async () => {
          await new Promise((r) => server.close(r));
          await pool.end();
        },
      });
    }),
  );
}

export async function bodyOf(t: LoadTarget): Promise<string> {
  const res = await fetch(t.url, { method: t.method ?? 'GET', headers: t.headers, body: t.body });
  if (res.status !== 200) throw new Error(`${t.label}: status ${res.status}`);
  return JSON.stringify(await res.json());
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

type Kind = 'reference' | 'service' | 'serviceLimited';

export const benchmark: Benchmark = {
  name: 'reference',
  description: 'the service against a node:http + pg prepared-statement reference doing the same reads, and the service with its rate limiter on vs off',
  async run() {
    // Budgets far above what a run sends, so the limiter counts but never refuses; it is
    // switched on and off between runs through the setting it reads on every request.
    // Settings a run may vary from the environment (the limiter's store, the credential cache).
    const store: Record<string, string> = {};
    for (const name of ['RATE_LIMIT_STORE', 'AUTH_CACHE_TTL_MS']) if (process.env[name]) store[name] = process.env[name]!;
    const { runtime, stop } = await startBenchService({ RATE_LIMIT_READS_PER_MINUTE: '10000000', ...store });
    const config = runtime.config as { RATE_LIMIT_ENABLED: boolean };
    const databaseUrl = (runtime.services.orm.config.get('clientUrl') as string | undefined) ?? '';
    const reference = await startReference(databaseUrl, createSecretKey(Buffer.from(runtime.config.SESSION_SECRET)));
    try {
      const { services, url } = runtime;
      const { user, token } = await RequestContext.create(services.orm.em, async () => {
        const u = await services.accounts.createUser({ name: 'Bench User', email: 'bench@example.test' });
        await services.accounts.updateProfile({ userId: u.id, credential: 'session' }, { intro: 'Builds benchmarks', location: 'Loopback', socials: [{ label: 'github', value: 'bench' }] });
        const issued = await services.sessions.issue(services.orm.em as EntityManager, u.id, { provider: 'bench' });
        return { user: u, token: issued.token };
      });
      const auth = { Authorization: `Bearer ${token}` };
      const scenarios: Array<{ name: string; targets: Record<Kind, LoadTarget> }> = [
        {
          name: 'GET /api/users/:id (no credential)',
          targets: {
            reference: { label: 'reference (node:http + pg)', url: `${reference.url}/users/${user.id}` },
            service: { label: 'service, rate limiter off', url: `${url}/api/users/${user.id}` },
            serviceLimited: { label: 'service, rate limiter on', url: `${url}/api/users/${user.id}` },
          },
        },
        {
          name: 'GET /api/auth/me (session token)',
          targets: {
            reference: { label: 'reference (node:http + pg)', url: `${reference.url}/me`, headers: auth },
            service: { label: 'service, rate limiter off', url: `${url}/api/auth/me`, headers: auth },
            serviceLimited: { label: 'service, rate limiter on', url: `${url}/api/auth/me`, headers: auth },
          },
        },
      ];
      const run = (s: (typeof scenarios)[number], k: Kind, seconds?: number) => {
        config.RATE_LIMIT_ENABLED = k === 'serviceLimited';
        return loadTest(s.targets[k], seconds);
      };

      process.stdout.write(
        `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${fmt(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}; ` +
          `${benchSettings.rounds} rounds x ${benchSettings.duration} s, ${benchSettings.connections} connections; ` +
          `rate limit store: ${(runtime.config as { RATE_LIMIT_STORE?: string }).RATE_LIMIT_STORE ?? 'postgres (the only one before issue 17)'}; ` +
          `credential cache TTL: ${(runtime.config as { AUTH_CACHE_TTL_MS?: number }).AUTH_CACHE_TTL_MS ?? 'none (before issue 17)'} ms\n`,
      );
      for (const s of scenarios) {
        // The reference must answer what the service answers, or the comparison means nothing.
        const [refBody, serviceBody] = [await bodyOf(s.targets.reference), await bodyOf(s.targets.service)];
        if (refBody !== serviceBody) throw new Error(`${s.name}: reference and service bodies differ:\n${refBody}\n${serviceBody}`);
        for (const k of ['reference', 'service', 'serviceLimited'] as const) await run(s, k, 2);

        const runs: Record<Kind, LoadResult[]> = { reference: [], service: [], serviceLimited: [] };
        for (let round = 0; round < benchSettings.rounds; round++) {
          // Rotated each round so the drift of a shared machine does not favour one target.
          const order = (['reference', 'service', 'serviceLimited'] as const).map((_, i, a) => a[(i + round) % a.length]);
          for (const k of order) {
            const r = await run(s, k);
            if (r.non2xx || r.errors) throw new Error(`${r.label}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
            runs[k].push(r);
          }
        }
        const med = (k: Kind, f: (r: LoadResult) => number) => median(runs[k].map(f));
        const ratio = (k: Kind, to: Kind, f: (r: LoadResult) => number) => median(runs[k].map((r, i) => f(r) / f(runs[to][i])));
        const rps = (r: LoadResult) => r.requestsPerSecond;
        const cpu = (r: LoadResult) => r.cpuMicrosPerRequest;
        process.stdout.write(`\n${s.name}\n`);
        process.stdout.write(`  ${'target'.padEnd(28)} ${'req/s'.padStart(7)} ${'vs ref'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'CPU µs/req'.padStart(11)}\n`);
        for (const k of ['reference', 'service', 'serviceLimited'] as const) {
          process.stdout.write(
            `  ${s.targets[k].label.padEnd(28)} ${fmt(med(k, rps)).padStart(7)} ${`${fmt(ratio(k, 'reference', rps) * 100, 1)}%`.padStart(7)} ` +
              `${fmt(med(k, (r) => r.latencyP50), 1).padStart(7)} ${fmt(med(k, (r) => r.latencyP99), 1).padStart(7)} ${fmt(med(k, cpu)).padStart(11)}\n`,
          );
        }
        process.stdout.write(`  rate limiter on vs off: throughput ${fmt(ratio('serviceLimited', 'service', rps) * 100, 1)}% (median of per-round ratios)\n`);
      }
      // Without HTTP, in this process's CPU time (steadier than throughput on a shared machine):
      // the credential check a signed-in request runs (token, session row), and the domain calls
      // behind the two reads, each in its own request context as a request runs it.
      const em = () => services.orm.em as EntityManager;
      const check = () => RequestContext.create(services.orm.em, () => services.authenticator.authenticate(em(), { bearer: token }));
      const first = await check();
      if (first.actor?.userId !== user.id) throw new Error('the session token does not verify');
      const inProcess = async (what: string, call: () => Promise<unknown>) => {
        for (let i = 0; i < 500; i++) await call();
        const calls = 5000;
        const before = process.cpuUsage();
        const started = process.hrtime.bigint();
        for (let i = 0; i < calls; i++) await call();
        const cpuUsed = process.cpuUsage(before);
        const wall = Number(process.hrtime.bigint() - started) / 1000 / calls;
        process.stdout.write(`in process, ${what} (${calls} calls one after another): ${fmt((cpuUsed.user + cpuUsed.system) / calls, 1)} µs CPU, ${fmt(wall, 1)} µs wall per call\n`);
      };
      process.stdout.write('\n');
      await inProcess('credential check of a session token (Authenticator.authenticate)', check);
      await inProcess('public user read (AccountService.publicUser)', () => RequestContext.create(services.orm.em, () => services.accounts.publicUser(user.id)));
      await inProcess('own account read (AccountService.me)', () => RequestContext.create(services.orm.em, () => services.accounts.me({ userId: user.id, credential: 'session' })));
    } finally {
      await reference.close();
      await stop();
    }
  },
};
