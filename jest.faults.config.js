/**
 * `npm run test:faults`: the fault suite of test/faults/ (processes killed mid-run, flaky providers,
 * lost connections, 10,000 fuzzed requests, the production install in a copy of the project), on the
 * same set-up as `npm test`, which leaves it out (jest.config.js) for its minutes of work.
 */
const base = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/faults'],
  testPathIgnorePatterns: ['/node_modules/'],
};
