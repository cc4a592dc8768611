import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where the run's directory is named, for the teardown (globalSetup and globalTeardown share one process). */
export const RUN_TMPDIR = 'RPS_TEST_RUN_TMPDIR';

/**
 * jest's globalSetup (jest.config.js): one temporary directory for the whole run, removed by
 * runTmpDirTeardown.ts at its end. Tests write PDFs, CSV files, SQLite databases and the plugin's PHP
 * state under os.tmpdir(); pointing TMPDIR here (the test workers, the service processes they start
 * and PHP read it) means no test leaves files behind, not even one killed mid-way.
 */
export default function runTmpDir(): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'rps-jest-run-'));
  process.env[RUN_TMPDIR] = dir;
  process.env.TMPDIR = dir;
}
