/**
 * Writes schema.graphql from the resolvers; with --check, fails when the checked-in file
 * differs from what the code builds (CI runs this).
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { printAppSchema } from '../src/graphql/schema';

async function main() {
  const file = join(__dirname, '..', 'schema.graphql');
  const sdl = await printAppSchema();
  if (process.argv.includes('--check')) {
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current !== sdl) {
      process.stderr.write('schema.graphql is out of date: run `npm run schema:emit` and commit the result.\n');
      process.exit(1);
    }
    process.stdout.write('schema.graphql is up to date\n');
    return;
  }
  writeFileSync(file, sdl);
  process.stdout.write(`wrote ${file}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
