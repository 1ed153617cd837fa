import { RequestContext } from '@mikro-orm/core';
import { execute } from 'graphql';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { cpus, totalmem } from 'node:os';
import { anonymous } from '../src/domain/auth/actor';
import { requireActor } from '../src/domain/access/credential';
import type { AccountView, PublicProfile } from '../src/domain/accounts/accounts.repository';
import { createContext } from '../src/graphql/context';
import { loadOperations } from '../src/rest/operations';
import type { Services } from '../src/services';
import { benchSettings, loadTest, median, startBenchService, type Benchmark, type LoadResult, type LoadTarget } from './harness';

const publicFields = (u: PublicProfile) => ({
  id: u.id,
  name: u.name,
  intro: u.intro,
  avatar: u.avatar,
  location: u.location,
  socials: u.socials.map(({ label, value }) => ({ label, value })),
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});

const accountFields = (u: AccountView) => ({
  ...publicFields(u),
  email: u.email,
  walletAddress: u.walletAddress,
  timezone: u.timezone,
  notificationPreferences: { opportunity: u.notificationPreferences.opportunity, morningBrief: u.notificationPreferences.morningBrief },
  profileConfirmedAt: u.profileConfirmedAt?.toISOString() ?? null,
  onboardingCompletedAt: u.onboardingCompletedAt?.toISOString() ?? null,
});

/**
 * The baseline: plain Express handlers calling the same domain service the resolvers call.
 * They sit just before the REST router, behind the same middleware (request id and log,
 * RequestContext, authentication, rate limiter, body parser), so the difference measured is
 * the REST-over-GraphQL layer alone.
 */
export function mountPlainHandlers(app: Express, services: Services): void {
  const plain = express.Router();
  const wrap = (fn: (req: Request) => Promise<unknown>) => (req: Request, res: Response, next: NextFunction) => {
    fn(req).then((body) => res.json(body), next);
  };
  plain.get('/api/bench/users/:userId', wrap(async (req) => ({ user: publicFields(await services.accounts.publicUser(String(req.params.userId))) })));
  plain.get('/api/bench/me', wrap(async (req) => ({ user: accountFields(await services.accounts.me(requireActor(req.auth?.actor))) })));
  app.use(plain);
  const stack = (app as unknown as { router: { stack: Array<{ name: string }> } }).router.stack;
  const layer = stack.pop()!;
  const rest = stack.findIndex((l) => l.name === 'router');
  if (rest < 0) throw new Error('REST router layer not found');
  stack.splice(rest, 0, layer);
}

const PUBLIC_USER_QUERY = 'query PublicUser($id: ID!) { user(id: $id) { id name intro avatar location socials { label value } createdAt updatedAt } }';
const ME_QUERY =
  'query Me { me { id name intro avatar location socials { label value } createdAt updatedAt email walletAddress timezone notificationPreferences { opportunity morningBrief } profileConfirmedAt onboardingCompletedAt } }';

interface Scenario {
  name: string;
  targets: { rest: LoadTarget; graphql: LoadTarget; plain: LoadTarget };
}

async function check(t: LoadTarget): Promise<unknown> {
  const res = await fetch(t.url, { method: t.method ?? 'GET', headers: t.headers, body: t.body });
  if (res.status !== 200) throw new Error(`${t.label}: status ${res.status}`);
  return res.json();
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const benchmark: Benchmark = {
  name: 'rest-overhead',
  description: 'throughput of a REST route vs the same operation on POST /graphql vs a plain Express handler over the same domain service',
  async run() {
    const { runtime, stop } = await startBenchService();
    try {
      const { services, server, url } = runtime;
      mountPlainHandlers(server.app, services);
      const { user, token } = await RequestContext.create(services.orm.em, async () => {
        const u = await services.accounts.createUser({ name: 'Bench User', email: 'bench@example.test' });
        await services.accounts.updateProfile({ userId: u.id, credential: 'session' }, {
          intro: 'Builds benchmarks',
          location: 'Loopback',
          socials: [{ label: 'github', value: 'bench' }],
        });
        const em = services.orm.em as import('@mikro-orm/postgresql').EntityManager;
        const issued = await services.sessions.issue(em, u.id, { provider: 'bench' });
        return { user: u, token: issued.token };
      });
      const auth = { Authorization: `Bearer ${token}` };
      const json = { 'content-type': 'application/json' };
      const scenarios: Scenario[] = [
        {
          name: 'public user read (no credential)',
          targets: {
            rest: { label: 'REST GET /api/users/:id', url: `${url}/api/users/${user.id}` },
            graphql: { label: 'POST /graphql user(id)', url: `${url}/graphql`, method: 'POST', headers: json, body: JSON.stringify({ query: PUBLIC_USER_QUERY, variables: { id: user.id } }) },
            plain: { label: 'plain Express handler', url: `${url}/api/bench/users/${user.id}` },
          },
        },
        {
          name: 'own account read (session)',
          targets: {
            rest: { label: 'REST GET /api/auth/me', url: `${url}/api/auth/me`, headers: auth },
            graphql: { label: 'POST /graphql me', url: `${url}/graphql`, method: 'POST', headers: { ...json, ...auth }, body: JSON.stringify({ query: ME_QUERY }) },
            plain: { label: 'plain Express handler', url: `${url}/api/bench/me`, headers: auth },
          },
        },
      ];

      process.stdout.write(
        `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${fmt(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}; ` +
          `${benchSettings.rounds} rounds x ${benchSettings.duration} s, ${benchSettings.connections} connections; ` +
          `database: ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL at BENCH_DATABASE_URL' : 'embedded PostgreSQL'}\n`,
      );
      for (const s of scenarios) {
        // The same JSON from the REST route and the plain handler: they do the same work.
        const [restBody, plainBody] = [await check(s.targets.rest), await check(s.targets.plain)];
        if (JSON.stringify(restBody) !== JSON.stringify(plainBody)) throw new Error(`${s.name}: REST and plain bodies differ`);
        await check(s.targets.graphql);
        // Warm-up: JIT, connection pool, caches.
        for (const t of Object.values(s.targets)) await loadTest(t, 2);

        const runs: Record<'rest' | 'graphql' | 'plain', LoadResult[]> = { rest: [], graphql: [], plain: [] };
        for (let round = 0; round < benchSettings.rounds; round++) {
          // Rotate the order each round so drift on a shared machine does not favour one target.
          const order = (['plain', 'rest', 'graphql'] as const).map((_, i, a) => a[(i + round) % a.length]);
          for (const k of order) {
            const r = await loadTest(s.targets[k]);
            if (r.non2xx || r.errors) throw new Error(`${r.label}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
            runs[k].push(r);
          }
        }
        // Each round's targets ran back to back, so ratios within a round cancel most of the
        // drift of a shared machine; the median over rounds is the figure.
        const med = (k: keyof typeof runs, f: (r: LoadResult) => number) => median(runs[k].map(f));
        const ratio = (k: keyof typeof runs, f: (r: LoadResult) => number) => median(runs[k].map((r, i) => f(r) / f(runs.plain[i])));
        const rps = (r: LoadResult) => r.requestsPerSecond;
        const cpu = (r: LoadResult) => r.cpuMicrosPerRequest;
        process.stdout.write(`\n${s.name}\n`);
        process.stdout.write(
          `  ${'target'.padEnd(28)} ${'req/s'.padStart(7)} ${'vs plain'.padStart(9)} ${'p50 ms'.padStart(7)} ${'CPU µs/req'.padStart(11)} ${'vs plain'.padStart(9)}\n`,
        );
        for (const k of ['plain', 'rest', 'graphql'] as const) {
          process.stdout.write(
            `  ${s.targets[k].label.padEnd(28)} ${fmt(med(k, rps)).padStart(7)} ${`${fmt(ratio(k, rps) * 100, 1)}%`.padStart(9)} ${fmt(med(k, (r) => r.latencyP50), 1).padStart(7)} ` +
              `${fmt(med(k, cpu)).padStart(11)} ${`${fmt(ratio(k, cpu) * 100, 1)}%`.padStart(9)}\n`,
          );
        }
        process.stdout.write(
          `  REST layer cost against the plain handler: ${fmt((ratio('rest', cpu) - 1) * 100, 1)}% more service CPU per request; ` +
            `throughput ${fmt(ratio('rest', rps) * 100, 1)}% of plain (medians of per-round ratios)\n`,
        );
      }

      // Without HTTP: the domain call alone vs graphql-js execute of the route's operation (what
      // the REST layer adds), alternating batches, in this process's CPU time.
      const op = loadOperations(server.schema).get('PublicUser')!;
      const direct = () => RequestContext.create(services.orm.em, async () => JSON.stringify({ user: publicFields(await services.accounts.publicUser(user.id)) }));
      const viaGraphql = () =>
        RequestContext.create(services.orm.em, async () => {
          const r = await execute({ schema: server.schema, document: op.document, operationName: op.name, variableValues: { id: user.id }, contextValue: createContext(services, anonymous, 'bench', services.logger) });
          return JSON.stringify({ user: (r.data as Record<string, unknown>).user });
        });
      const cpuOf = { direct: 0, viaGraphql: 0 };
      const batch = 100;
      for (let i = 0; i < 3 * batch; i++) await Promise.all([direct(), viaGraphql()]);
      for (let round = 0; round < 20; round++) {
        for (const k of (round % 2 ? ['direct', 'viaGraphql'] : ['viaGraphql', 'direct']) as Array<keyof typeof cpuOf>) {
          const before = process.cpuUsage();
          for (let i = 0; i < batch; i++) await (k === 'direct' ? direct() : viaGraphql());
          const d = process.cpuUsage(before);
          cpuOf[k] += d.user + d.system;
        }
      }
      const calls = 20 * batch;
      process.stdout.write(
        `\nin process, public user read: domain call ${fmt(cpuOf.direct / calls)} µs CPU, through graphql execute ${fmt(cpuOf.viaGraphql / calls)} µs CPU ` +
          `(+${fmt((cpuOf.viaGraphql - cpuOf.direct) / calls)} µs per request)\n`,
      );
    } finally {
      await stop();
    }
  },
};
