const base = require('./jest.config.js');

/**
 * The resilience drills (test/resilience): crashes, two instances, a database outage, hostile
 * input over every route, load. They start real service processes and take minutes, so CI runs
 * them as a step of their own after `npm test`; one file at a time, since each drill measures
 * the machine it runs on.
 */
/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testPathIgnorePatterns: ['/node_modules/'],
  roots: ['<rootDir>/test/resilience'],
  maxWorkers: 1,
  testTimeout: 300_000,
};
