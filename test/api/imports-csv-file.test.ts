import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { bytesOf, type CsvBytes } from '../../src/modules/imports/csvFile';
import { csvSource } from '../../src/modules/imports/csvSource';
import type { ImportCandidate } from '../../src/modules/imports/sources';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

type Json = Record<string, unknown>;

// Imports make customers and mandates at the provider row by row: slow on a loaded machine (MySQL above all).
jest.setTimeout(90_000);

const HEADER = 'reference,signature_date,iban,account_holder,first_name,last_name,email,amount,interval,start,vat_rate';
/** One good line of the file; `fields` replace its values by column. */
function line(reference: string, fields: Partial<Record<string, string>> = {}): string {
  const row: Record<string, string> = {
    reference,
    signature_date: '2025-03-14',
    iban: 'NL91ABNA0417164300',
    account_holder: 'A. de Vries',
    first_name: 'Anna',
    last_name: 'de Vries',
    email: `${reference.toLowerCase()}@example.nl`,
    amount: '12.10',
    interval: 'month',
    start: '2026-12-01',
    vat_rate: '21',
    ...fields,
  };
  return HEADER.split(',')
    .map((column) => row[column] ?? '')
    .join(',');
}

/**
 * CSV import files (issue 36): read as a stream, never whole; each field checked against the size of
 * the column it is stored in (a value too long fails its row, not the run — on MySQL too); a database
 * refusal of one row fails that row only; a file that is not UTF-8 refused with one line naming the
 * line and the likely encoding, or converted from Windows-1252 when asked. The clock stands at
 * 2026-11-21 10:00 UTC; sandbox provider.
 */
describe.each(TEST_DATABASES)('CSV import files on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let name: string;
  let counter = 0;

  beforeEach(async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    counter += 1;
    name = `CSV file ${process.pid}-${counter}`;
    ({ token, accountId } = await t.newAccount(name));
  });

  const rowsOf = (body: { rows: { data: Json[] } }) => new Map(body.rows.data.map((row) => [row.source_id, row]));

  it('When a file of many megabytes is read, then only a few pieces of it have been read by the time its first rows come', async () => {
    const piece = 64 * 1024;
    const row = `${line('R-1')}\n`;
    const rowsPerPiece = Math.floor(piece / row.length);
    const pieces = 200; // 12.5 MB
    let read = 0;
    // The file as a stream of pieces made as they are asked for: what is read is counted.
    const bytes: CsvBytes = async function* file() {
      yield Buffer.from(`${HEADER}\n`);
      for (let index = 0; index < pieces; index += 1) {
        read += 1;
        let text = '';
        for (let n = 0; n < rowsPerPiece; n += 1) text += line(`R-${index}-${n}`) + '\n';
        yield Buffer.from(text);
      }
    };
    const account = { id: accountId } as Parameters<ReturnType<typeof csvSource>['candidates']>[1];
    const taken: ImportCandidate[] = [];
    for await (const candidate of csvSource(bytes, { encoding: 'utf-8', vatRate: null }).candidates(t.ctx, account)) {
      taken.push(candidate);
      if (taken.length === rowsPerPiece + 5) break;
    }
    expect(taken.at(-1)).toMatchObject({ sourceId: 'R-1-4', line: rowsPerPiece + 6 });
    expect(read).toBeLessThanOrEqual(3);
    expect(read).toBeLessThan(pieces);

    // A character cut between two pieces, a quoted field with a line break and \r\n line ends read as in one piece.
    const text = `${HEADER}\r\n${line('Q-1', { account_holder: '"Zoë ""Z"" de\nVries"' })}\r\n${line('Q-2', { last_name: 'Smeets' })}`;
    const whole = Buffer.from(text);
    const read1: ImportCandidate[] = [];
    const read7: ImportCandidate[] = [];
    for await (const one of csvSource(bytesOf(whole), { encoding: 'utf-8', vatRate: null }).candidates(t.ctx, account)) read1.push(one);
    for await (const one of csvSource(bytesOf(whole, 7), { encoding: 'utf-8', vatRate: null }).candidates(t.ctx, account)) read7.push(one);
    expect(read7).toEqual(read1);
    expect(read7.map((one) => [one.sourceId, one.line])).toEqual([
      ['Q-1', 2],
      ['Q-2', 4],
    ]);
    expect(read7[0]?.mandate).toMatchObject({ consumerName: 'Zoë "Z" de\nVries' });
  });

  it('When a field is longer than its column, then that row fails on that field and the others are imported', async () => {
    const csv = [
      HEADER,
      line('LONG-1', { first_name: 'A'.repeat(192) }),
      line('OK-1'),
      line('LONG-2', { email: `${'e'.repeat(187)}@x.nl` }),
    ].join('\n');
    const res = await t.as(token).post('/api/v2/imports', { source: 'csv', csv });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'finished', counts: { total: 3, created: 1, failed: 2 } });
    const rows = rowsOf(res.body);
    expect(rows.get('LONG-1')).toMatchObject({ outcome: 'failed', field: 'first_name', reason: 'It has 192 characters; at most 191 fit.' });
    expect(rows.get('OK-1')).toMatchObject({ outcome: 'created' });
    expect(rows.get('LONG-2')).toMatchObject({ outcome: 'failed', field: 'email', reason: 'It has 192 characters; at most 191 fit.' });
  });

  it('When the database refuses one row, then that row fails and the run goes on with the next', async () => {
    // A trigger refuses one customer's insert, as a database refuses a value it cannot store.
    if (kind === 'mysql') {
      await t.ctx.db.raw(
        "CREATE TRIGGER refuse_one BEFORE INSERT ON customers FOR EACH ROW BEGIN IF NEW.email = 'refused@example.nl' THEN " +
          "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'; END IF; END",
      );
    } else {
      await t.ctx.db.raw(
        "CREATE TRIGGER refuse_one BEFORE INSERT ON customers WHEN NEW.email = 'refused@example.nl' " +
          "BEGIN SELECT RAISE(ABORT, 'refused'); END",
      );
    }
    try {
      const csv = [HEADER, line('DB-1'), line('DB-2', { email: 'refused@example.nl' }), line('DB-3')].join('\n');
      const res = await t.as(token).post('/api/v2/imports', { source: 'csv', csv });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'finished', counts: { total: 3, created: 2, failed: 1 } });
      expect(rowsOf(res.body).get('DB-2')).toMatchObject({
        outcome: 'failed',
        field: 'customer',
        reason: expect.stringMatching(/^The database refused it \((SQLITE_CONSTRAINT\w*|ER_SIGNAL_EXCEPTION)\); run the import again/),
      });
      expect(await t.ctx.db('customers').where({ account_id: accountId }).pluck('email')).toEqual(
        expect.arrayContaining(['db-1@example.nl', 'db-3@example.nl']),
      );
    } finally {
      await t.ctx.db.raw('DROP TRIGGER refuse_one');
    }
  });

  it(
    'When a file is not UTF-8, then the CLI and the API refuse it with one line naming the line and Windows-1252, importing ' +
      'nothing; with encoding windows-1252 it is converted',
    async () => {
      // "Zoë Müller" as Excel on Windows saves it: ë is 0xEB, ü 0xFC (the account holder's, first on the line); on line 3.
      const latin = Buffer.concat([
        Buffer.from(`${HEADER}\n${line('W-1')}\n`),
        Buffer.from(line('W-2', { first_name: 'Zo\u00eb', last_name: 'M\u00fcller', account_holder: 'Z. M\u00fcller ~' }), 'latin1'),
        Buffer.from('\n'),
      ]);
      // latin1 cannot write the euro sign: Windows-1252 has it at 0x80.
      latin[latin.lastIndexOf(0x7e)] = 0x80; // the ~ put in its place
      const path = `${tmpdir()}/import-1252-${process.pid}-${counter}.csv`;
      writeFileSync(path, latin);
      const refused = await cli(t.ctx, 'import', 'csv', '--account', name, path);
      expect(refused.code).toBe(1);
      const said =
        'The file is not UTF-8: line 3 has byte 0xFC; it looks like Windows-1252 (Excel\'s "CSV" on Windows; ISO-8859-1 is read ' +
        'the same). Save it as "CSV UTF-8", or import it with encoding windows-1252.';
      expect(refused.err).toEqual([`error: ${path}: ${said}`]);
      const api = await t.as(token).post('/api/v2/imports', { source: 'csv', csv_base64: latin.toString('base64') });
      expect(api.status).toBe(422);
      expect(api.body.fields.csv).toEqual([said]);
      expect(await t.ctx.db('customers').where({ account_id: accountId })).toEqual([]);

      const converted = await cli(t.ctx, 'import', 'csv', '--account', name, '--encoding', 'windows-1252', path);
      expect(converted.code).toBe(0);
      expect(converted.out.at(-1)).toMatch(/: 2 rows: 2 created, 0 skipped, 0 failed$/);
      expect(await t.ctx.db('customers').where({ account_id: accountId, email: 'w-2@example.nl' }).first()).toMatchObject({
        first_name: 'Zoë',
        last_name: 'Müller',
      });
      expect(await t.ctx.db('mandates').where({ account_id: accountId, mandate_reference: 'W-2' }).first()).toMatchObject({
        consumer_name: 'Z. Müller €',
      });
    },
  );
});
