#!/usr/bin/env node
// Runs a maintenance command (migrate, reindex, seed): the compiled one, dist/cli/<name>.js, in
// production (NODE_ENV=production, as in the Docker image, which has no TypeScript tooling),
// else the source through swc. `npm run <name> -- <args>` passes the arguments on.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const COMMANDS = ['migrate', 'reindex', 'seed'];
const name = process.argv[2];
if (!COMMANDS.includes(name)) {
  process.stderr.write(`usage: node scripts/command.js <${COMMANDS.join('|')}> [arguments]\n`);
  process.exit(64);
}
// The command reads its own arguments from argv[2] on, as if it had been started directly.
process.argv.splice(2, 1);

const root = join(__dirname, '..');
let fromSource = false;
if (process.env.NODE_ENV !== 'production') {
  try {
    require.resolve('@swc-node/register');
    fromSource = true;
  } catch {
    // Development dependencies are not installed: run what was built.
  }
}
if (fromSource) {
  require('@swc-node/register');
  require(join(root, 'src', 'cli', `${name}.ts`));
} else {
  const compiled = join(root, 'dist', 'cli', `${name}.js`);
  if (!existsSync(compiled)) {
    process.stderr.write(`${compiled} is missing: run npm run build first\n`);
    process.exit(1);
  }
  require(compiled);
}
