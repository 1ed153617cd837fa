import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The matching development set in the scorer's format (../shared/eval/matching-dev.json). */
export interface DevSet {
  networks: Array<{ key: string; title: string }>;
  users: Array<{ key: string; name: string }>;
  intents: Array<{ key: string; user: string; networks: string[]; text: string }>;
  queries: Array<{ intent: string; relevant: Array<{ intent: string; grade: number }>; hardNegatives?: string[]; otherNetwork?: string[] }>;
}

const ROOT = resolve(__dirname, '..', '..');

/**
 * The copy kept in the repository, so a clone anywhere (CI's included) runs the checks that
 * guard issue 4's goal; test/matching/dev-set-path.test.ts fails when it differs from the
 * shared original beside the repository.
 */
export const DEV_SET_COPY = join(ROOT, 'test', 'fixtures', 'matching-dev.json');

/** The shared original beside the repository (a main checkout, or a worktree one level deeper). */
export const SHARED_DEV_SET = [join(ROOT, '..', 'shared', 'eval', 'matching-dev.json'), join(ROOT, '..', '..', 'shared', 'eval', 'matching-dev.json')];

/**
 * Where the development set is: MATCHING_DEV_SET, else the shared original, else the copy in
 * the repository. Missing is an error, never a skip.
 */
export function devSetCandidates(): string[] {
  return [process.env.MATCHING_DEV_SET, ...SHARED_DEV_SET, DEV_SET_COPY].filter((p): p is string => Boolean(p));
}

export function devSetPath(candidates = devSetCandidates()): string {
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`matching-dev.json not found; looked in ${candidates.join(', ')} (set MATCHING_DEV_SET)`);
  return found;
}

export function loadDevSet(): DevSet {
  return JSON.parse(readFileSync(devSetPath(), 'utf8')) as DevSet;
}

/** Every development set by file name: the shared original when present, else the repository's copy. */
export function loadDevSets(): Array<{ name: string; data: DevSet }> {
  return ['matching-dev.json', 'matching-dev-2.json'].map((name) => {
    const shared = [join(ROOT, '..', 'shared', 'eval', name), join(ROOT, '..', '..', 'shared', 'eval', name)].find((p) => existsSync(p));
    return { name, data: JSON.parse(readFileSync(shared ?? join(ROOT, 'test', 'fixtures', name), 'utf8')) as DevSet };
  });
}

/**
 * Whether the development-set suites run in full (`npm run eval`, which CI runs) or on their
 * smoke subset (`npm test`): the same checks on a third of the networks, so the everyday suite
 * stays quick and still fails when a change breaks the path end to end.
 */
export const DEV_SET_FULL = process.env.DEV_SET_FULL === '1';

/**
 * Every third network of a set (the first, the fourth, …), with the intents, users and queries
 * inside them; a judged counterpart outside them is left out of its query.
 */
export function smokeSubset(data: DevSet): DevSet {
  const keep = new Set(data.networks.filter((_, i) => i % 3 === 0).map((n) => n.key));
  const intents = data.intents.filter((i) => i.networks.some((n) => keep.has(n))).map((i) => ({ ...i, networks: i.networks.filter((n) => keep.has(n)) }));
  const kept = new Set(intents.map((i) => i.key));
  const users = new Set(intents.map((i) => i.user));
  return {
    networks: data.networks.filter((n) => keep.has(n.key)),
    users: data.users.filter((u) => users.has(u.key)),
    intents,
    queries: data.queries
      .filter((q) => kept.has(q.intent))
      .map((q) => ({ ...q, relevant: q.relevant.filter((r) => kept.has(r.intent)), hardNegatives: q.hardNegatives?.filter((h) => kept.has(h)) })),
  };
}

/** The first development set, whole under `npm run eval`, its smoke subset under `npm test`. */
export function loadDevSetForRun(): DevSet {
  const data = loadDevSet();
  return DEV_SET_FULL ? data : smokeSubset(data);
}

/** Both development sets, whole under `npm run eval`, their smoke subsets under `npm test`. */
export function loadDevSetsForRun(): Array<{ name: string; data: DevSet }> {
  return loadDevSets().map(({ name, data }) => ({ name: DEV_SET_FULL ? name : `${name} (smoke subset)`, data: DEV_SET_FULL ? data : smokeSubset(data) }));
}
