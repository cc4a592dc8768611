import { rmSync } from 'node:fs';
import { RUN_TMPDIR } from './runTmpDir';

/** jest's globalTeardown (jest.config.js): removes the run's temporary directory and what tests left in it. */
export default function runTmpDirTeardown(): void {
  const dir = process.env[RUN_TMPDIR];
  if (dir) rmSync(dir, { recursive: true, force: true });
}
