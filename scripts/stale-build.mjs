// What the two build-if-stale scripts share (scripts/build-service-if-stale.mjs for the
// service's dist/, packages/web/scripts/build-if-stale.mjs for the web app): the newest input
// and one build at a time.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time under `path` (a file or a folder, followed down); 0 if missing. */
export function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

/**
 * Takes the lock directory `lock` (two test files, or jest's globalSetup and a test, may ask for
 * a build at once), waiting up to five minutes; a lock older than that is a crashed build's and
 * is taken over. Released when the process exits.
 */
export function holdBuildLock(lock, label) {
  const waitUntil = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      if (Date.now() > waitUntil) throw new Error(`${label}: ${lock} is held; remove it if no build is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  process.on('exit', () => rmSync(lock, { recursive: true, force: true }));
}
