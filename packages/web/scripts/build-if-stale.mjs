// Builds the web app (vite build) unless dist/ is newer than every input and was built for the
// same VITE_API_URL. The root `npm run build` (and so `npm start`) runs this, so a warm start
// skips the bundler. `npm run build -w @intro-match/web` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { holdBuildLock, newest } from '../../../scripts/stale-build.mjs';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const inputs = [join(web, 'src'), join(web, 'public'), join(web, 'index.html'), join(web, 'vite.config.ts'), join(web, 'package.json'), join(web, '..', 'client', 'src')];
const stampFile = join(web, 'dist', '.build-stamp.json');
const wanted = { apiUrl: process.env.VITE_API_URL ?? '' };

function upToDate() {
  if (process.env.WEB_BUILD === 'always' || !existsSync(stampFile) || !existsSync(join(web, 'dist', 'index.html'))) return false;
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    if (stamp.apiUrl !== wanted.apiUrl) return false;
    return Math.max(...inputs.map(newest)) < statSync(stampFile).mtimeMs;
  } catch {
    return false;
  }
}

holdBuildLock(join(web, '.build-lock'), 'web app');

if (upToDate()) {
  console.log('web app: dist is up to date (packages/web/dist); skipping the build');
} else {
  const vite = join(web, 'node_modules', '.bin', 'vite');
  const bin = existsSync(vite) ? vite : join(web, '..', '..', 'node_modules', '.bin', 'vite');
  // Always React's production build: a caller's NODE_ENV (jest sets `test`) would otherwise give
  // the development build, which runs every effect twice under StrictMode and is twice the size.
  const res = spawnSync(bin, ['build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (res.status !== 0) process.exit(res.status ?? 1);
  writeFileSync(stampFile, JSON.stringify({ ...wanted, builtAt: new Date().toISOString() }) + '\n');
  console.log('web app: built packages/web/dist');
}
