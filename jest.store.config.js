/**
 * `npm run test:store`: the end-to-end suite against the real WordPress + WooCommerce store of
 * ../shared/realstore (test/store/). One store and one built service for the whole suite (globalSetup),
 * one file run in order, since its scenarios share that store. `npm test` leaves it out (jest.config.js).
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/store'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  globalSetup: '<rootDir>/test/store/harness/globalSetup.ts',
  globalTeardown: '<rootDir>/test/store/harness/globalTeardown.ts',
  testTimeout: 120000,
  maxWorkers: 1,
};
