import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ProviderOutageError } from '../../src/providers/errors';
import { importResponse } from '../../src/modules/imports/schemas';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const COLUMNS = [
  ['reference', 'signature_date', 'iban', 'account_holder', 'first_name', 'last_name', 'email'],
  ['amount', 'interval', 'interval_amount', 'day', 'times', 'times_done', 'start', 'description'],
];
const HEADER = COLUMNS.flat().join(',');

/** One line of an import file; `fields` replace the good defaults. */
function line(reference: string, fields: Partial<Record<string, string>> = {}): string {
  const row: Record<string, string> = {
    reference,
    signature_date: '2025-03-14',
    iban: 'NL91ABNA0417164300',
    account_holder: 'A. de Vries',
    first_name: 'Anna',
    last_name: 'de Vries',
    email: 'anna@example.nl',
    amount: '12.50',
    interval: 'month',
    interval_amount: '1',
    day: '5',
    times: '12',
    times_done: '3',
    start: '2026-12-01',
    description: 'Coffee of the month',
    ...fields,
  };
  return HEADER.split(',')
    .map((column) => row[column] ?? '')
    .join(',');
}

const file = (...lines: string[]) => [HEADER, ...lines].join('\n');

describe.each(TEST_DATABASES)('imports from a CSV file on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    ({ token, accountId } = await t.newAccount());
  });
  afterEach(() => jest.restoreAllMocks());

  const postImport = (csv: string, dryRun = false) => t.as(token).post('/api/v2/imports', { source: 'csv', csv, dry_run: dryRun });
  const countOf = async (table: string) => Number((await t.ctx.db(table).where({ account_id: accountId }).count({ n: '*' }))[0]?.n);
  const madeRows = async () => ({
    customers: await countOf('customers'),
    mandates: await countOf('mandates'),
    subscriptions: await countOf('subscriptions'),
    atProvider: await countOf('sandbox_mandates'),
  });
  const outcomes = (body: { rows: { data: Array<{ source_id: string; line: number | null; outcome: string; field: string | null }> } }) =>
    body.rows.data.map(({ source_id, line: at, outcome, field }) => ({ source_id, line: at, outcome, field }));

  it(
    'When good and bad rows are imported, then each good row makes a customer, a mandate and a subscription, and each bad one ' +
      'fails alone with its line and field',
    async () => {
      const csv = file(
        line('REF-001'),
        line('REF-002', { iban: 'NL91ABNA0417164301' }),
        line('REF-003', { interval: 'fortnight' }),
        line('REF-001', { email: 'other@example.nl' }),
        line('REF-005', { amount: '12.505' }),
        line('REF-006', { start: '2026-13-01' }),
        line('REF-007', { interval: 'weeks', interval_amount: '2', day: '3', times: '', times_done: '0', amount: '"7,25"' }),
      );
      const res = await postImport(csv);
      expect(res.status).toBe(201);
      expect(importResponse.parse(res.body)).toEqual(res.body);
      expect(res.body).toMatchObject({
        source: 'csv',
        dry_run: false,
        status: 'finished',
        counts: { total: 7, created: 2, skipped: 0, failed: 5 },
      });
      expect(outcomes(res.body)).toEqual([
        { source_id: 'REF-001', line: 2, outcome: 'created', field: null },
        { source_id: 'REF-002', line: 3, outcome: 'failed', field: 'iban' },
        { source_id: 'REF-003', line: 4, outcome: 'failed', field: 'interval' },
        { source_id: 'REF-001 (line 5)', line: 5, outcome: 'failed', field: 'reference' },
        { source_id: 'REF-005', line: 6, outcome: 'failed', field: 'amount' },
        { source_id: 'REF-006', line: 7, outcome: 'failed', field: 'start' },
        { source_id: 'REF-007', line: 8, outcome: 'created', field: null },
      ]);
      expect(res.body.rows.data[3].reason).toBe('The reference is on line 2 already.');
      expect(res.body.rows.data[2].reason).toBe('"fortnight" is not an interval: day, week, month or year.');

      const [first, weekly] = [res.body.rows.data[0], res.body.rows.data[6]];
      const subscription = await t.as(token).get(`/api/v2/subscriptions/${first.subscription_id}`);
      expect(subscription.status).toBe(200);
      // Three of twelve charges were made before: ours is charge 4, on the 5th from December.
      expect(subscription.body).toMatchObject({
        source: 'csv',
        source_id: 'REF-001',
        status: 'active',
        name: 'Coffee of the month',
        next_payment_at: '2026-12-05',
        next_amount: '12.50',
        rules: [{ amount: '12.50', interval: 'month', interval_amount: 1, day: 5, times: 12, times_done: 3 }],
      });
      expect(subscription.body.customer).toMatchObject({ id: first.customer_id, first_name: 'Anna', email: 'anna@example.nl' });
      const mandate = await t.ctx.db('sandbox_mandates').where({ account_id: accountId, mandate_reference: 'REF-001' });
      expect(mandate).toHaveLength(1);
      expect(String(mandate[0].signature_date).slice(0, 10)).toBe('2025-03-14');
      expect(mandate[0].consumer_account).toBe('NL91ABNA0417164300');
      expect(subscription.body.provider_mandate_id).toBe(mandate[0].id);

      const every2Weeks = await t.as(token).get(`/api/v2/subscriptions/${weekly.subscription_id}`);
      expect(every2Weeks.body).toMatchObject({
        source_id: 'REF-007',
        next_payment_at: '2026-12-02', // the first Wednesday on or after 1 December
        rules: [{ amount: '7.25', interval: 'week', interval_amount: 2, day: 3, times: null, times_done: 0 }],
      });
      expect(await madeRows()).toEqual({ customers: 2, mandates: 2, subscriptions: 2, atProvider: 2 });

      // The report again, paged.
      const page2 = await t.as(token).get(`/api/v2/imports/${res.body.id}?page=2&per_page=3`);
      expect(page2.status).toBe(200);
      expect(page2.body.rows.meta).toMatchObject({ current_page: 2, per_page: 3, total: 7, from: 4, to: 6 });
      expect(outcomes(page2.body).map((row) => row.line)).toEqual([5, 6, 7]);
    },
  );

  it('When a subscription made by the API is read, then it has no source', async () => {
    const res = await postImport(file(line('REF-A')));
    const [row] = res.body.rows.data;
    const listed = await t.as(token).get(`/api/v2/subscriptions/${row.subscription_id}`);
    expect(listed.body.source).toBe('csv');
    const plain = await t.ctx.db('subscriptions').whereNot({ id: row.subscription_id }).where({ account_id: accountId });
    expect(plain).toEqual([]);
  });

  it('When the import is a dry run, then nothing is created and the real run afterwards does exactly what it planned', async () => {
    const csv = file(line('REF-001'), line('REF-002', { iban: 'NL00ABNA0417164300' }), line('REF-003', { day: '' }));
    const dry = await postImport(csv, true);
    expect(dry.status).toBe(201);
    expect(dry.body).toMatchObject({ dry_run: true, status: 'finished', counts: { total: 3, created: 2, skipped: 0, failed: 1 } });
    expect(dry.body.rows.data[0].reason).toBe('12.50 EUR every month, next 2026-12-05 (charge 4 of 12); mandate REF-001 signed 2025-03-14');
    expect(await madeRows()).toEqual({ customers: 0, mandates: 0, subscriptions: 0, atProvider: 0 });

    const real = await postImport(csv);
    const planned = dry.body.rows.data.map((row: { outcome: string; reason: string; field: string | null; source_id: string }) => ({
      source_id: row.source_id,
      outcome: row.outcome,
      field: row.field,
      reason: row.reason,
    }));
    const done = real.body.rows.data.map((row: { outcome: string; reason: string; field: string | null; source_id: string }) => ({
      source_id: row.source_id,
      outcome: row.outcome === 'created' ? 'would_create' : row.outcome,
      field: row.field,
      reason: row.reason,
    }));
    expect(done).toEqual(planned);
    expect(real.body.counts).toEqual(dry.body.counts);
    expect(await madeRows()).toEqual({ customers: 2, mandates: 2, subscriptions: 2, atProvider: 2 });
  });

  it('When the same file is imported twice, then the second run creates nothing and reports each row as imported before', async () => {
    const csv = file(line('REF-001'), line('REF-002', { email: 'bob@example.nl' }));
    const first = await postImport(csv);
    expect(first.body.counts).toEqual({ total: 2, created: 2, skipped: 0, failed: 0 });
    const after = await madeRows();
    const again = await postImport(csv);
    expect(again.body.counts).toEqual({ total: 2, created: 0, skipped: 2, failed: 0 });
    expect(again.body.rows.data.map((row: { outcome: string; subscription_id: string }) => [row.outcome, row.subscription_id])).toEqual(
      first.body.rows.data.map((row: { subscription_id: string }) => ['exists', row.subscription_id]),
    );
    expect(await madeRows()).toEqual(after);
    // A dry run after it plans nothing new either.
    const dry = await postImport(csv, true);
    expect(dry.body.rows.data.map((row: { outcome: string }) => row.outcome)).toEqual(['exists', 'exists']);
  });

  it(
    "When the provider's answer to the mandate creation is lost, then the row fails, and the next run finds that mandate " +
      'instead of making a second',
    async () => {
      const provider = await t.ctx.providers.forAccount({ id: accountId });
      const createAtProvider = provider.createMandate.bind(provider);
      const calls = jest.spyOn(provider, 'createMandate').mockImplementationOnce(async (input, key) => {
        await createAtProvider(input, key); // made at the provider …
        throw new ProviderOutageError('connection reset', 5); // … and the answer lost on the way
      });
      jest.spyOn(t.ctx.providers, 'forAccount').mockResolvedValue(provider);

      const csv = file(line('REF-LOST'));
      const first = await postImport(csv);
      expect(first.body.counts).toMatchObject({ created: 0, failed: 1 });
      expect(first.body.rows.data[0]).toMatchObject({ outcome: 'failed', field: 'mandate', subscription_id: null });
      expect(await countOf('sandbox_mandates')).toBe(1);
      expect(await countOf('mandates')).toBe(0);

      const again = await postImport(csv);
      expect(again.body.rows.data[0]).toMatchObject({ outcome: 'created', field: null });
      expect(calls).toHaveBeenCalledTimes(1);
      const atProvider = await t.ctx.db('sandbox_mandates').where({ account_id: accountId });
      expect(atProvider).toHaveLength(1);
      expect(await madeRows()).toEqual({ customers: 1, mandates: 1, subscriptions: 1, atProvider: 1 });
      const subscription = await t.ctx.db('subscriptions').where({ id: again.body.rows.data[0].subscription_id }).first();
      expect(subscription.provider_mandate_id).toBe(atProvider[0].id);
    },
  );

  it('When the file lacks a column, or names a source there is none of, then it answers 422 and imports nothing', async () => {
    const noIban = await postImport('reference,amount\nREF-1,12.50');
    expect(noIban.status).toBe(422);
    expect(noIban.body.fields.csv[0]).toContain('signature_date, iban, account_holder');
    const unknown = await t.as(token).post('/api/v2/imports', { source: 'chargebee' });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.fields)).toEqual(['source']);
    expect(await countOf('imports')).toBe(0);
  });

  it("When another account's import is asked for, then it answers 404", async () => {
    const res = await postImport(file(line('REF-001')));
    const other = await t.newAccount();
    expect((await t.as(other.token).get(`/api/v2/imports/${res.body.id}`)).status).toBe(404);
    expect((await t.as(token).get('/api/v2/imports/imp_doesnotexist')).status).toBe(404);
  });

  it(
    'When the CLI runs a dry run of a long file, then it prints a progress line, every row with its plan or reason, and ' +
      'creates nothing',
    async () => {
      const name = (await t.ctx.db('accounts').where({ id: accountId }).first()).name as string;
      const lines = Array.from({ length: 120 }, (_, index) => line(`REF-${String(index + 1).padStart(3, '0')}`));
      lines[9] = line('REF-010', { iban: 'NL91ABNA0417164301' });
      const path = `${tmpdir()}/import-${accountId}.csv`;
      writeFileSync(path, file(...lines));
      const dry = await cli(t.ctx, 'import', 'csv', '--account', name, path, '--dry-run');
      expect(dry.code).toBe(0);
      expect(dry.err).toEqual(['import: 100 rows: 99 would be created, 0 skipped, 1 failed so far']);
      expect(dry.out[0]).toBe(
        'line 2 REF-001: would create — 12.50 EUR every month, next 2026-12-05 (charge 4 of 12); mandate REF-001 signed 2025-03-14',
      );
      expect(dry.out[9]).toBe('line 11 REF-010: failed — iban: It is not a valid IBAN (its check digits do not match).');
      expect(dry.out).toHaveLength(121);
      expect(dry.out[120]).toMatch(/^dry run imp_\w+: 120 rows: 119 would be created, 0 skipped, 1 failed$/);
      expect(await madeRows()).toEqual({ customers: 0, mandates: 0, subscriptions: 0, atProvider: 0 });

      const real = await cli(t.ctx, 'import', 'csv', '--account', name, path);
      expect(real.code).toBe(0);
      expect(real.out[120]).toMatch(/^import imp_\w+: 120 rows: 119 created, 0 skipped, 1 failed$/);
      expect(await madeRows()).toEqual({ customers: 119, mandates: 119, subscriptions: 119, atProvider: 119 });
    },
    // 240 rows through the CLI (a dry run, then the import), each with its invoice rules: near 30 s on a loaded MySQL.
    60_000,
  );

  it('When the CLI is given a file without the needed columns, then it says which and exits 1', async () => {
    const name = (await t.ctx.db('accounts').where({ id: accountId }).first()).name as string;
    const path = `${tmpdir()}/import-bad-${accountId}.csv`;
    writeFileSync(path, 'reference;amount\nREF-1;12,50\n');
    const res = await cli(t.ctx, 'import', 'csv', '--account', name, path);
    expect(res.code).toBe(1);
    expect(res.err).toEqual([
      `error: ${path}: The first line names no column signature_date, iban, account_holder, first_name, last_name, email, interval, start.`,
    ]);
  });
});
