const { readFileSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { classify, exactPatterns, shardFiles, shardsOf } = require('./test/setup/projects');

const swc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));
// Inside jest, dynamic import() must become require(): jest's module sandbox has no ESM loader.
swc.module = { type: 'commonjs' };
delete swc.$schema;

/** What every project shares: the transform and the environment that guards against leftovers. */
const shared = {
  rootDir: __dirname,
  testEnvironment: '<rootDir>/test/setup/environment.js',
  // The service's tests, the client package's and the CLI's (which run against the service).
  roots: ['<rootDir>/test', '<rootDir>/packages/client/test', '<rootDir>/packages/cli/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swc, swcrc: false }] },
};

// The resilience drills run as their own CI step (jest.resilience.config.js, `npm run test:resilience`).
const ignored = ['/node_modules/', '<rootDir>/test/resilience/'];
// Files are sorted by what they import (test/setup/projects.js): whether they reach the test database.
const { unit, integration } = classify();

// A whole run runs shards (test/shards/): each loads the service's modules once for a share of
// the files instead of once per file (test/setup/shard.ts). Files named on the command line run
// as themselves, and IM_TEST_SHARDS=off runs every file as itself.
const VALUE_FLAGS = new Set(['-t', '--testNamePattern', '--selectProjects', '--outputFile', '--maxWorkers', '-w', '-c', '--config', '--shard', '--testTimeout', '--reporters', '--seed']);
function namesFiles(argv) {
  for (let i = 0; i < argv.length; i++) {
    if (VALUE_FLAGS.has(argv[i])) i += 1;
    else if (!argv[i].startsWith('-')) return true;
  }
  return false;
}
const sharded = process.env.IM_TEST_SHARDS !== 'off' && !namesFiles(process.argv.slice(2));
/** What a project leaves to the other one, and what runs inside its shards rather than as itself. */
function ignoredBy(project) {
  const other = project === 'unit' ? integration : unit;
  if (!sharded) return [...ignored, '<rootDir>/test/shards/', ...exactPatterns(other)];
  const otherShards = shardFiles(project === 'unit' ? 'integration' : 'unit');
  const inShards = shardsOf(project, project === 'unit' ? unit : integration).shards.flat();
  return [...ignored, ...exactPatterns([...other, ...otherShards, ...inShards])];
}

const projects = [
  {
    ...shared,
    displayName: 'unit',
    // No globalSetup: no PostgreSQL, so `npm run test:unit` takes seconds.
    testPathIgnorePatterns: ignoredBy('unit'),
    setupFiles: ['<rootDir>/test/setup/unit-file.ts'],
  },
  {
    ...shared,
    displayName: 'integration',
    testPathIgnorePatterns: ignoredBy('integration'),
    globalSetup: '<rootDir>/test/setup/global-setup.ts',
    globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    setupFiles: ['<rootDir>/test/setup/per-file.ts'],
  },
];

/** @type {import('jest').Config} */
module.exports = {
  // `npm run test:unit` and `test:integration` name one project in IM_TEST_PROJECT rather than
  // passing --selectProjects, whose list would swallow the paths an `npm run … -- <path>` appends.
  projects: process.env.IM_TEST_PROJECT ? projects.filter((p) => p.displayName === process.env.IM_TEST_PROJECT) : projects,
  // A run-wide option: jest reads the test timeout from the global config, not a project's.
  testTimeout: 60_000,
  // Three workers on two cores: a file waiting on PostgreSQL, a child process or a timed window
  // leaves its core to another worker's file instead of idle (docs/architecture.md, "Time").
  // (A percentage above 100 is read as a count of workers.)
  maxWorkers: Math.max(2, Math.floor(availableParallelism() * 1.5)),
  // Heaviest first, by the seconds the shards were dealt (a fresh clone has no timings of its own).
  testSequencer: '<rootDir>/test/setup/sequencer.js',
  // Every file loads the whole service into its own module registry, and a worker's heap grows
  // file after file (200 MB to 550 MB over the seven network files). A worker holding gigabytes
  // at the end of a run takes longer than jest-worker's 500 ms to exit and is force-exited,
  // although test/setup/environment.js finds no handle or listener left by any file. A worker
  // past 1 GB after a file is replaced by a fresh one instead.
  workerIdleMemoryLimit: '1GB',
  // Each file starts its own service on its own database clone; a hang must not stall CI.
  forceExit: false,
};
