import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A maker of fresh temporary directories named `<prefix>…`, every one removed after the file (or
 * the describe) that calls this. Call it where hooks may be declared, not inside a test.
 * `mode` opens them to others: an embedded PostgreSQL runs as another user when tests run as root.
 */
export function tempDirs(prefix: string, mode?: number): () => string {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    if (mode !== undefined) chmodSync(dir, mode);
    made.push(dir);
    return dir;
  };
}
