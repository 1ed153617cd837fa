import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The matching development set in the scorer's format (../shared/eval/matching-dev.json). */
export interface DevSet {
  networks: Array<{ key: string; title: string }>;
  users: Array<{ key: string; name: string }>;
  intents: Array<{ key: string; user: string; networks: string[]; text: string }>;
  queries: Array<{ intent: string; relevant: Array<{ intent: string; grade: number }>; hardNegatives?: string[]; otherNetwork?: string[] }>;
}

/**
 * Where the development set is: MATCHING_DEV_SET, else the shared folder beside the
 * repository (a main checkout or a worktree one level deeper). Missing is an error, never a
 * skip: the goal of issue 4 is guarded by the tests that read it.
 */
export function devSetCandidates(): string[] {
  const root = resolve(__dirname, '..', '..');
  return [
    process.env.MATCHING_DEV_SET,
    join(root, '..', 'shared', 'eval', 'matching-dev.json'),
    join(root, '..', '..', 'shared', 'eval', 'matching-dev.json'),
  ].filter((p): p is string => Boolean(p));
}

export function devSetPath(candidates = devSetCandidates()): string {
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`matching-dev.json not found; looked in ${candidates.join(', ')} (set MATCHING_DEV_SET)`);
  return found;
}

export function loadDevSet(): DevSet {
  return JSON.parse(readFileSync(devSetPath(), 'utf8')) as DevSet;
}
