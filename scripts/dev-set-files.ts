import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Both development sets for the evaluation scripts: the shared originals beside the repository
 * (a main checkout, or a worktree one level deeper), else the copies kept in test/fixtures (a
 * clone with no shared/ beside it; test/foundation/shared-copies.test.ts keeps them equal).
 */
export function devSetFiles(): string[] {
  const dirs = [resolve(__dirname, '..', '..', 'shared', 'eval'), resolve(__dirname, '..', '..', '..', 'shared', 'eval'), resolve(__dirname, '..', 'test', 'fixtures')];
  return ['matching-dev.json', 'matching-dev-2.json'].map((f) => dirs.map((d) => resolve(d, f)).find((p) => existsSync(p)) ?? resolve(dirs[0], f));
}
