/**
 * Runs the named benchmarks (bench/<name>.bench.ts), or all of them:
 *   npm run bench            # every benchmark
 *   npm run bench -- <name>  # one or more by name
 */
// Measure the service as it is deployed (the Docker image sets it too): graphql-js and Express
// skip development-only checks. Set before any benchmark loads them.
process.env.NODE_ENV ??= 'production';
import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark } from './harness';

function available(): Map<string, string> {
  const files = readdirSync(__dirname).filter((f) => f.endsWith('.bench.ts')).sort();
  return new Map(files.map((f) => [f.replace(/\.bench\.ts$/, ''), join(__dirname, f)]));
}

async function main(): Promise<void> {
  const all = available();
  const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = asked.filter((n) => !all.has(n));
  if (unknown.length) {
    process.stderr.write(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${[...all.keys()].join(', ')}\n`);
    process.exit(2);
  }
  for (const name of asked.length ? asked : [...all.keys()]) {
    const mod = (await import(all.get(name)!)) as { benchmark?: Benchmark };
    if (!mod.benchmark) throw new Error(`${name}.bench.ts exports no benchmark`);
    process.stdout.write(`\n== ${mod.benchmark.name}: ${mod.benchmark.description}\n`);
    await mod.benchmark.run();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
