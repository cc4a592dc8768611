/**
 * `npm run test:store`: the end-to-end suite against the real WordPress + WooCommerce store of
 * ../shared/realstore (test/realstore/). One store and one built service for the whole suite (globalSetup),
 * one file run in order, since its scenarios share that store. `npm test` leaves it out (jest.config.js).
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/realstore'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  globalSetup: '<rootDir>/test/realstore/harness/globalSetup.ts',
  globalTeardown: '<rootDir>/test/realstore/harness/globalTeardown.ts',
  testTimeout: 120000,
  maxWorkers: 1,
};
