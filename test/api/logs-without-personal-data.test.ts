import express from 'express';
import request from 'supertest';
import { errorHandler } from '../../src/http/errorHandler';
import { newId } from '../../src/ids';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const EMAIL = 'jan.jansen@example.nl';
const IBAN = 'NL91ABNA0417164300';

/**
 * A failing insert carrying personal data: its error message is what our logging paths write.
 * Before knex kept bound values out of error messages, the message quoted both.
 */
describe.each(TEST_DATABASES)('logs without personal data on %s', (kind) => {
  const t = useTestApp(kind);
  let accountId: string;
  const customerId = newId('cus');

  beforeAll(async () => {
    ({ accountId } = await t.newAccount());
    await t.ctx.db('customers').insert(customerRow('someone.else@example.org', 'NL20INGB0001234567'));
  });

  function customerRow(email: string, number: string) {
    const now = '2026-11-21 10:00:00';
    return {
      id: customerId,
      account_id: accountId,
      number,
      first_name: 'Jan',
      last_name: 'Jansen',
      email,
      created_at: now,
      updated_at: now,
    };
  }

  /** The same id again: a unique-key violation whose insert carries an e-mail address and an IBAN. */
  const insertDuplicateCustomer = () => t.ctx.db('customers').insert(customerRow(EMAIL, IBAN));

  const linesSince = (count: number) => t.logs.lines.slice(count);
  const expectNoPersonalData = (lines: string[]) => {
    expect(lines.join('\n')).not.toContain(EMAIL);
    expect(lines.join('\n')).not.toContain(IBAN);
    expect(lines.join('\n')).not.toContain('someone.else@example.org');
  };
  /** What failed is still said: the statement and the database's reason. */
  const expectItSaysWhatFailed = (line: string) => {
    expect(line).toMatch(/insert into .?customers/);
    // MySQL quotes the duplicated value, which may itself be personal; the log masks it.
    expect(line).toMatch(kind === 'mysql' ? /Duplicate entry '\[redacted\]' for key/ : /UNIQUE constraint failed: customers\.id/);
  };

  it('When an insert fails, then the error message shows placeholders instead of the bound values', async () => {
    // Not `instanceof Error`: under jest, better-sqlite3's SqliteError may come from another realm.
    const message = await insertDuplicateCustomer().then(
      () => '',
      (failure: { message?: unknown }) => String(failure.message),
    );
    expect(message).toMatch(/insert into .?customers.* values \(\?, \?/);
    expect(message).not.toContain(EMAIL);
    expect(message).not.toContain(IBAN);
  });

  it(
    'When the failing insert runs as a background task, then the logged failure names the insert but neither the e-mail address nor ' +
      'the IBAN',
    async () => {
      const before = t.logs.lines.length;
      t.ctx.background.run('store customer', insertDuplicateCustomer);
      await t.ctx.background.idle();

      const lines = linesSince(before);
      const failure = lines.find((line) => line.includes('background task failed'));
      expect(failure).toBeDefined();
      expect(JSON.parse(failure ?? '{}')).toMatchObject({ level: 'error', task: 'store customer' });
      expectItSaysWhatFailed(failure ?? '');
      expectNoPersonalData(lines);
    },
  );

  it(
    'When the failing insert throws inside a request, then the error handler logs the failure without the e-mail address or the ' + 'IBAN',
    async () => {
      const app = express();
      app.post('/customers', async () => {
        await insertDuplicateCustomer();
      });
      app.use(errorHandler(t.ctx.logger));

      const before = t.logs.lines.length;
      const res = await request(app).post('/customers');
      expect(res.status).toBe(500);
      expect(JSON.stringify(res.body)).not.toContain(EMAIL);

      const lines = linesSince(before);
      const failure = lines.find((line) => line.includes('unhandled error'));
      expect(failure).toBeDefined();
      // The stack (which repeats the message) is checked with every other line below; it is absent when
      // jest hands us an error from another realm, which the handler then logs as String(error).
      expect(JSON.parse(failure ?? '{}')).toMatchObject({ level: 'error', method: 'POST', path: '/customers' });
      expectItSaysWhatFailed(failure ?? '');
      expectNoPersonalData(lines);
    },
  );
});
