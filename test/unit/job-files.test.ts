import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { allJobs } from '../../src/jobs';

/** A job is found by its name: `cli jobs run sync-stores` is in src/jobs/syncStores.ts. */

const JOBS_DIR = path.resolve(__dirname, '../../src/jobs');

const camelCase = (name: string): string => name.replace(/-([a-z])/g, (_dash, letter: string) => letter.toUpperCase());

/** The job a file of src/jobs defines (`name: '…'` in its `: Job = {` or `: CatchingUpJob = {`), if any. */
function jobNameIn(file: string): string | undefined {
  const source = readFileSync(path.join(JOBS_DIR, file), 'utf8');
  return /:\s*\w*Job\s*=\s*\{\s*name:\s*'([^']+)'/.exec(source)?.[1];
}

describe('job files', () => {
  const defined = readdirSync(JOBS_DIR)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => [file, jobNameIn(file)] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);

  it('When the files of src/jobs are read, then every job of the list is defined in one of them', () => {
    expect(defined.map(([, name]) => name).sort()).toEqual(allJobs.map((job) => job.name).sort());
  });

  it.each(defined.map(([file, name]) => [file, name]))('When %s defines the job %s, then the file is named after it', (file, name) => {
    expect(file).toBe(`${camelCase(name)}.ts`);
  });
});
