/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The real-store suite has its own command and set-up (npm run test:store, jest.store.config.js); the
  // fault suite too (npm run test:faults, jest.faults.config.js): crashes, fuzzing and the production
  // install spend minutes of the machine, so `npm test` stays the newcomer's ten minutes.
  testPathIgnorePatterns: ['/node_modules/', '/test/realstore/', '/test/faults/'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  // One temporary directory per run (TMPDIR), removed at its end: no test leaves files behind.
  globalSetup: '<rootDir>/test/support/runTmpDir.ts',
  globalTeardown: '<rootDir>/test/support/runTmpDirTeardown.ts',
  setupFiles: ['<rootDir>/test/support/closeNetwork.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/support/restoreNetwork.ts'],
  // A test's timeout catches a hang, not slowness (the benchmark measures speed): generous enough that
  // a machine busy with twice the work still finishes every test (at 30 s, a busy machine failed some).
  testTimeout: 120000,
  // Each test file builds its own database; two cores, so two workers.
  maxWorkers: 2,
};
