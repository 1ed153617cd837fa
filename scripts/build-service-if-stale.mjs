// Compiles the service (src → dist, with swc) unless dist/ is newer than every input. `npm run
// build` runs this; so does the test suite's globalSetup, since the tests that start the service
// as its own process run the compiled dist/main.js, as production does. SERVICE_BUILD=always
// compiles regardless.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { holdBuildLock, newest } from './stale-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const inputs = [join(root, 'src'), join(root, '.swcrc'), join(root, 'package-lock.json')];
const stampFile = join(root, 'dist', '.build-stamp.json');

function upToDate() {
  if (process.env.SERVICE_BUILD === 'always' || !existsSync(stampFile) || !existsSync(join(root, 'dist', 'main.js'))) return false;
  return Math.max(...inputs.map(newest)) < statSync(stampFile).mtimeMs;
}

holdBuildLock(join(root, '.build-lock'), 'service');

if (upToDate()) {
  console.log('service: dist is up to date; skipping the build');
} else {
  const swc = join(root, 'node_modules', '.bin', 'swc');
  const args = ['src', '-d', 'dist', '--strip-leading-paths', '--copy-files', '--config-file', '.swcrc'];
  const res = spawnSync(swc, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (res.status !== 0) process.exit(res.status ?? 1);
  writeFileSync(stampFile, JSON.stringify({ builtAt: new Date().toISOString() }) + '\n');
  console.log('service: compiled src into dist');
}
