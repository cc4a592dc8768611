import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBase62 } from '../../src/ids';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { runCliProcess, startCliProcess } from '../support/serviceProcess';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/testApp';
import { expectCleanAudit } from '../support/audit';

// A child process imports, is killed and runs again; on a busy 2-core CI machine that takes a while.
jest.setTimeout(120_000);

const ROWS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A file of ROWS good rows; the start lies ahead of any clock this test runs under. */
function importFile(): string {
  const header = 'reference,signature_date,iban,account_holder,first_name,last_name,email,amount,interval,day,times,times_done,start';
  const rows = Array.from({ length: ROWS }, (_, index) => {
    const n = String(index + 1).padStart(3, '0');
    return `CRASH-${n},2025-03-14,NL91ABNA0417164300,A. de Vries,Anna,Customer ${n},anna${n}@example.nl,9.95,month,5,12,2,2030-01-01`;
  });
  return [header, ...rows].join('\n');
}

/**
 * The CLI as an operator runs it, killed with SIGKILL while it imports (between any two writes or
 * provider calls), then run again: the end state is that of one uninterrupted run.
 */
describe.each(TEST_DATABASES)('an import killed halfway, on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());
  afterEach(() => expectCleanAudit(t.ctx));

  const env = () => ({
    NODE_ENV: 'test',
    DATABASE_URL: t.ctx.config.DATABASE_URL,
    APP_KEY: `base64:${t.ctx.config.appKey.toString('base64')}`,
    PUBLIC_URL: TEST_PUBLIC_URL,
  });
  const countOf = async (table: string, accountId: string) =>
    Number((await t.ctx.db(table).where({ account_id: accountId }).count({ n: '*' }))[0]?.n);
  /** What the import made in an account, without its ids. */
  const endState = async (accountId: string) => ({
    customers: await countOf('customers', accountId),
    mandates: await countOf('mandates', accountId),
    atProvider: await countOf('sandbox_mandates', accountId),
    subscriptions: await t.ctx
      .db('subscriptions')
      .where({ account_id: accountId })
      .orderBy('source_id')
      .select('source', 'source_id', 'status', 'next_payment_at', 'next_charge_number', 'next_amount'),
    referencesAtProvider: (
      await t.ctx.db('sandbox_mandates').where({ account_id: accountId }).orderBy('mandate_reference').pluck('mandate_reference')
    ).map(String),
  });

  it('When the CLI is killed halfway through a file and run again, then each row is imported once, as in a clean run', async () => {
    const file = path.join(tmpdir(), `import-crash-${randomBase62(8)}.csv`);
    writeFileSync(file, importFile());

    const clean = await t.newAccount(`Clean ${randomBase62(8)}`);
    const cleanName = (await t.ctx.db('accounts').where({ id: clean.accountId }).first()).name as string;
    const cleanRun = await cli(t.ctx, 'import', 'csv', '--account', cleanName, file);
    expect(cleanRun.code).toBe(0);

    const name = `Crash ${randomBase62(8)}`;
    const { accountId } = await t.newAccount(name);
    const running = startCliProcess(env(), ['import', 'csv', '--account', name, file]);
    for (let waited = 0; (await countOf('subscriptions', accountId)) < 10; waited += 20) {
      if (waited > 60_000) throw new Error(`the import made no 10 subscriptions in a minute: ${(await running.exited).stderr}`);
      await sleep(20);
    }
    await running.crash();
    const madeBeforeKill = await countOf('subscriptions', accountId);
    expect(madeBeforeKill).toBeLessThan(ROWS);
    // The killed run's report stays as it was left: running, its counts as far as it got.
    const [killed] = await t.ctx.db('imports').where({ account_id: accountId });
    expect(killed.status).toBe('running');

    const again = await runCliProcess(env(), ['import', 'csv', '--account', name, file]);
    expect(again.code).toBe(0);
    const summary = again.stdout.trim().split('\n').pop() ?? '';
    const [, created, skipped] = /(\d+) created, (\d+) skipped, 0 failed$/.exec(summary) ?? [];
    expect(Number(created) + Number(skipped)).toBe(ROWS);
    expect(Number(skipped)).toBeGreaterThanOrEqual(madeBeforeKill);

    const state = await endState(accountId);
    expect(state).toEqual(await endState(clean.accountId));
    expect(state).toMatchObject({ customers: ROWS, mandates: ROWS, atProvider: ROWS });
    expect(state.subscriptions).toHaveLength(ROWS);
    expect(state.subscriptions[0]).toMatchObject({ source: 'csv', source_id: 'CRASH-001', next_charge_number: 3, next_amount: 995 });
  });
});
