import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allJobs } from '../../src/jobs';

/**
 * The job table of docs/operations.md is what an operator reads to know what runs and when: one row per
 * job of allJobs, so a new job cannot ship without its row, nor a removed one leave its row behind.
 */

const OPERATIONS_DOC = path.resolve(__dirname, '../../docs/operations.md');

/** The first cell (a `name` in backticks) of each row of the table under "## Background jobs". */
function jobTableNames(markdown: string): string[] {
  const section = markdown.split(/^## Background jobs$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] ?? '');
}

describe('the job table of docs/operations.md', () => {
  it('When the doc is read beside allJobs, then each job has exactly one row and no row names another', () => {
    const rows = jobTableNames(readFileSync(OPERATIONS_DOC, 'utf8'));
    expect([...rows].sort()).toEqual(allJobs.map((job) => job.name).sort());
  });

  it('When a table is read, then only the rows of the Background jobs section count', () => {
    const markdown = [
      '## Metrics',
      '| `rps_outbox_depth` | rows |',
      '## Background jobs',
      '| job | schedule | what it does |',
      '|---|---|---|',
      '| `bill` | daily | the billing run |',
      '| `sync-stores` | every 15 min | the sync |',
      '## The ledger audit',
      '| `document_numbers` | gapless |',
    ].join('\n');
    expect(jobTableNames(markdown)).toEqual(['bill', 'sync-stores']);
  });
});
