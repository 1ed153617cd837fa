/**
 * Runs this checkout's service for another benchmark process (bench/builds.bench.ts): starts it
 * as `startBenchService` does, makes one user with a profile and a session, prints one JSON line
 * (`url`, `databaseUrl`, `userId`, `token`, `sessionSecret`) and serves until its stdin closes.
 * Kept small and free of newer modules, so it can be copied into an older checkout as it is.
 *
 *   node -r @swc-node/register bench/serve.ts '{"RATE_LIMIT_READS_PER_MINUTE":"10000000"}'
 */
process.env.NODE_ENV ??= 'production';
import 'reflect-metadata';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { startBenchService } from './harness';

async function main(): Promise<void> {
  const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
  const { runtime, stop } = await startBenchService(env);
  const { services } = runtime;
  const made = await RequestContext.create(services.orm.em, async () => {
    const u = await services.accounts.createUser({ name: 'Bench User', email: 'bench@example.test' });
    await services.accounts.updateProfile({ userId: u.id, credential: 'session' }, { intro: 'Builds benchmarks', location: 'Loopback', socials: [{ label: 'github', value: 'bench' }] });
    const issued = await services.sessions.issue(services.orm.em as EntityManager, u.id, { provider: 'bench' });
    return { userId: u.id, token: issued.token };
  });
  const databaseUrl = (services.orm.config.get('clientUrl') as string | undefined) ?? '';
  process.stdout.write(`${JSON.stringify({ url: runtime.url, databaseUrl, sessionSecret: runtime.config.SESSION_SECRET, ...made })}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  await stop();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
