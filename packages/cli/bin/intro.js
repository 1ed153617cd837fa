#!/usr/bin/env node
// The `intro` command: runs the built CLI (packages/cli/dist, made by `npm run cli:build`).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const built = join(__dirname, '..', 'dist', 'bin.js');
if (!existsSync(built)) {
  process.stderr.write('intro: the CLI is not built yet; run: npm run cli:build\n');
  process.exit(1);
}
require(built);
