// Which test files need the database (and with it the service), for jest's two projects
// (jest.config.js): `unit` runs without PostgreSQL, `integration` with globalSetup's server.
//
// The criterion is what a file imports, followed through the suite's own helper modules (not
// into src/): a file is an integration file when it reaches one of the modules that open the
// test database or start the service, or reads the variables globalSetup leaves for them.
// A file no one classified by hand cannot end up on the wrong side: a new test that starts the
// service is an integration file by its import alone; and a unit file that reached for the
// database anyway fails, since test/setup/unit-file.ts removes globalSetup's variables.
const { existsSync, readFileSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const TEST_ROOTS = ['test', 'packages/client/test', 'packages/cli/test'].map((r) => join(ROOT, r));
/** The shard files (test/shards/<project>-<n>.test.ts), each running a share of a project's files. */
const SHARD_DIR = join(ROOT, 'test', 'shards');
/** Kept out of both projects: the drills run under jest.resilience.config.js; the shards are sorted apart. */
const EXCLUDED = [join(ROOT, 'test', 'resilience'), SHARD_DIR];

/** The modules that open the test database or start the service. */
const DATABASE_MODULES = ['test/helpers/app.ts', 'test/setup/db.ts', 'test/helpers/service-process.ts'].map((p) => join(ROOT, p));
/** What globalSetup hands to test files (test/setup/global-setup.ts). */
const DATABASE_VARIABLES = /\b(IM_TEST_ADMIN_URL|IM_TEST_TEMPLATE|TEST_DATABASE_URL)\b/;
const RELATIVE_IMPORT = /(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function resolveModule(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.js`, join(base, 'index.ts'), join(base, 'index.js')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const inTestTree = (file) => TEST_ROOTS.some((r) => file.startsWith(`${r}/`));

function needsDatabase(file, seen = new Set()) {
  if (DATABASE_MODULES.includes(file)) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  if (DATABASE_VARIABLES.test(source)) return true;
  for (const [, spec] of source.matchAll(RELATIVE_IMPORT)) {
    const target = resolveModule(file, spec);
    if (target && inTestTree(target) && needsDatabase(target, seen)) return true;
  }
  return false;
}

function testFiles(dir) {
  if (!existsSync(dir) || EXCLUDED.includes(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every test file of `npm test`, split by whether it needs the database. */
function classify() {
  const unit = [];
  const integration = [];
  for (const file of TEST_ROOTS.flatMap(testFiles).sort()) (needsDatabase(file) ? integration : unit).push(file);
  return { unit, integration };
}

/**
 * A file that changes the module registry (jest.mock and the like) or the timers runs alone: in
 * a shard the change would reach the files after it.
 */
const ALONE = /\bjest\.(?:mock|doMock|unmock|resetModules|isolateModules|isolateModulesAsync|enableAutomock|useFakeTimers)\(/;

/** The shard files of a project, in order. */
function shardFiles(project) {
  if (!existsSync(SHARD_DIR)) return [];
  const re = new RegExp(`^${project}-(\\d+)\\.test\\.ts$`);
  return readdirSync(SHARD_DIR)
    .map((name) => [name, re.exec(name)])
    .filter(([, m]) => m)
    .sort((a, b) => Number(a[1][1]) - Number(b[1][1]))
    .map(([name]) => join(SHARD_DIR, name));
}

/**
 * Seconds each file took when run as itself (`node test/setup/projects.js --record <jest --json
 * output>` writes them; `--merge` instead of `--record` updates only the files of that run): the
 * shards are dealt by them, so they come out about even in time. A file not recorded yet weighs
 * its size at the recorded files' seconds per byte.
 */
const DURATIONS = join(SHARD_DIR, 'durations.json');

function weights(files) {
  const recorded = existsSync(DURATIONS) ? JSON.parse(readFileSync(DURATIONS, 'utf8')) : {};
  const seconds = (f) => (recorded[relative(ROOT, f)] > 0 ? recorded[relative(ROOT, f)] : null);
  const size = (f) => statSync(f).size;
  const known = files.filter((f) => seconds(f) !== null);
  const perByte = known.length ? known.reduce((n, f) => n + seconds(f), 0) / known.reduce((n, f) => n + size(f), 0) : 1;
  return new Map(files.map((f) => [f, seconds(f) ?? size(f) * perByte]));
}

/**
 * A project's files split into as many shards as it has shard files, and those that run alone.
 * Jest loads the service's modules once per test file (about 1.7 s of CPU each); a shard loads
 * them once for all its files. Files are dealt heaviest first to the lightest shard, so the
 * shards come out about even. Deterministic: the same tree and durations give the same shards.
 */
function shardsOf(project, files = classify()[project]) {
  const count = shardFiles(project).length;
  const alone = files.filter((f) => !count || ALONE.test(readFileSync(f, 'utf8')));
  const shared = files.filter((f) => !alone.includes(f));
  const weight = weights(shared);
  const shards = Array.from({ length: count }, () => ({ files: [], weight: 0 }));
  for (const f of [...shared].sort((a, b) => weight.get(b) - weight.get(a) || (a < b ? -1 : 1))) {
    const lightest = shards.reduce((m, s) => (s.weight < m.weight ? s : m), shards[0]);
    lightest.files.push(f);
    lightest.weight += weight.get(f);
  }
  return { shards: shards.map((s) => s.files.sort()), alone, weights: shards.map((s) => s.weight) };
}

/**
 * Writes the files' durations from a `jest --json` run of every file as itself; with `merge`,
 * the files of that run replace their own entries and every other file keeps its recorded one.
 */
function record(jsonFile, merge = false) {
  const run = JSON.parse(readFileSync(jsonFile, 'utf8'));
  const out = merge && existsSync(DURATIONS) ? JSON.parse(readFileSync(DURATIONS, 'utf8')) : {};
  for (const r of run.testResults) {
    const rel = relative(ROOT, r.testFilePath ?? r.name);
    if (rel.startsWith('test/shards/')) throw new Error('record a run with IM_TEST_SHARDS=off: shards hide the files\' own times');
    const skipped = r.assertionResults.every((a) => a.status !== 'passed' && a.status !== 'failed');
    if (!skipped) out[rel] = Math.round((r.endTime - r.startTime) / 100) / 10;
  }
  writeFileSync(DURATIONS, `${JSON.stringify(Object.fromEntries(Object.entries(out).sort()), null, 1)}\n`);
  return Object.keys(out).length;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Jest path patterns matching exactly these files (for a project's testPathIgnorePatterns). */
const exactPatterns = (files) => files.map((f) => `^${escape(f)}$`);

module.exports = { classify, exactPatterns, shardFiles, shardsOf, weights, ROOT, relative: (f) => relative(ROOT, f) };

if (require.main === module && (process.argv[2] === '--record' || process.argv[2] === '--merge')) {
  process.stdout.write(`${record(process.argv[3], process.argv[2] === '--merge')} files' durations written to ${relative(ROOT, DURATIONS)}\n`);
} else if (require.main === module) {
  const { unit, integration } = classify();
  process.stdout.write(`unit (${unit.length}):\n${unit.map((f) => `  ${relative(ROOT, f)}`).join('\n')}\n`);
  process.stdout.write(`integration (${integration.length}):\n${integration.map((f) => `  ${relative(ROOT, f)}`).join('\n')}\n`);
  for (const project of ['unit', 'integration']) {
    const { shards, alone, weights: expected } = shardsOf(project);
    shards.forEach((files, i) => process.stdout.write(`${project} shard ${i + 1} (${files.length} files, weight ${Math.round(expected[i])}):\n${files.map((f) => `  ${relative(ROOT, f)}`).join('\n')}\n`));
    process.stdout.write(`${project}, alone (${alone.length}):\n${alone.map((f) => `  ${relative(ROOT, f)}`).join('\n')}\n`);
  }
}
