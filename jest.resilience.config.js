const base = require('./jest.config.js');

// The integration project's setup (globalSetup's PostgreSQL, the guarded environment), on the drills' folder.
const { displayName, ...integration } = base.projects.find((p) => p.displayName === 'integration');

/**
 * The resilience drills (test/resilience): crashes, two instances, a database outage, hostile
 * input over every route, load. They start real service processes and take minutes, so CI runs
 * them as a step of their own after `npm test`; one file at a time, since each drill measures
 * the machine it runs on.
 */
/** @type {import('jest').Config} */
module.exports = {
  ...integration,
  testPathIgnorePatterns: ['/node_modules/'],
  roots: ['<rootDir>/test/resilience'],
  maxWorkers: 1,
  workerIdleMemoryLimit: base.workerIdleMemoryLimit,
  forceExit: base.forceExit,
  testTimeout: 300_000,
};
