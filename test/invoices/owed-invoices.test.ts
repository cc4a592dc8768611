import request from 'supertest';
import { issueDueOwedInvoices } from '../../src/modules/invoices/owed';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { refuseUpdatesOf } from '../support/rowWriteFault';
import { useTestApp } from '../support/testApp';
import { billAndSettle, invoicesOf } from '../support/invoices';

/**
 * Invoicing never blocks recording money: a paid payment owes its invoice in the status transaction;
 * numbering and issuing it happen apart, so a failure there leaves the payment `paid` and the invoice
 * owed, issued later by the job. And one number per document, across invoices and credit notes.
 */
describe.each(TEST_DATABASES)('owed invoices and document numbers on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let accountName: string;

  beforeEach(async () => {
    accountName = `Owed ${Math.random().toString(36).slice(2, 8)}`;
    ({ token, accountId } = await t.newAccount(accountName));
  });

  /** The payer's bank takes the money back: the payment's invoice gets a credit note. */
  async function chargeBack(paymentId: string) {
    const payment = await t.ctx.db('payments').where({ id: paymentId }).first();
    await t.ctx
      .db('sandbox_payments')
      .where({ id: payment.provider_payment_id })
      .update({ status: 'charged_back', amount_charged_back: payment.amount });
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  }

  const setInvoicing = (...options: string[]) => cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, ...options);
  const runJob = () => issueDueOwedInvoices(t.ctx, new AbortController().signal);
  const owedOf = () => t.ctx.db('owed_invoices').where({ account_id: accountId });
  /** Numbering fails: the account's counter row refuses every update (a database trigger). */
  const refuseNumbering = () => refuseUpdatesOf(t.ctx.db, kind, 'invoice_settings', accountId, 'account_id');

  it('When numbering throws, then payment and charge are still paid, the invoice is owed and the job issues it later, once', async () => {
    expect((await setInvoicing('--prefix', 'N-', '--vat', '21')).code).toBe(0);
    await subscribe(t, token);
    const undo = await refuseNumbering();
    await billAndSettle(t, accountId, '2026-12-01');

    const [payment] = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
    expect(payment.status).toBe('paid');
    expect((await t.ctx.db('subscription_charges').where({ payment_id: payment.id }).first()).status).toBe('paid');
    expect(await invoicesOf(t, accountId)).toEqual([]);
    const [owed] = await owedOf();
    expect(owed).toMatchObject({ payment_id: payment.id, status: 'owed', attempts: 1, last_error: expect.stringContaining('row locked') });

    await undo();
    expect(await runJob()).toEqual({ processed: 0, failed: 0 }); // its next attempt is not due yet
    t.clock.advance(61_000);
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    expect(await runJob()).toEqual({ processed: 0, failed: 0 });
    await billAndSettle(t, accountId, '2026-12-01'); // the same status again: nothing more owed
    const invoices = await invoicesOf(t, accountId);
    expect(invoices.map((invoice) => [invoice.number, invoice.status, invoice.payment_id])).toEqual([['N-1', 'issued', payment.id]]);
    expect((await owedOf()).map((row) => row.status)).toEqual(['done']);
  });

  it('When issuing keeps failing, then the merchant gets invoice.issue_failed once; the invoice is issued when it can be', async () => {
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', accountName, '--url', 'https://merchant.example/events')).code).toBe(
      0,
    );
    expect((await setInvoicing('--vat', '21')).code).toBe(0);
    await subscribe(t, token);
    const undo = await refuseNumbering();
    await billAndSettle(t, accountId, '2026-12-01'); // attempt 1, right after the commit
    const failedEvents = () => t.ctx.db('outbound_events').where({ account_id: accountId, event: 'invoice.issue_failed' });
    for (let attempt = 2; attempt <= 4; attempt += 1) {
      t.clock.advance(7 * 3_600_000);
      expect(await runJob()).toEqual({ processed: 0, failed: 1 });
    }
    expect(await failedEvents()).toHaveLength(0);
    t.clock.advance(7 * 3_600_000);
    expect(await runJob()).toEqual({ processed: 0, failed: 1 }); // attempt 5
    t.clock.advance(7 * 3_600_000);
    expect(await runJob()).toEqual({ processed: 0, failed: 1 }); // attempt 6: no second event
    const events = await failedEvents();
    expect(events).toHaveLength(1);
    const [payment] = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
    expect(JSON.parse(events[0].payload)).toMatchObject({
      event: 'invoice.issue_failed',
      payment_id: payment.id,
      attempts: 5,
      reason: expect.stringContaining('row locked'),
    });
    expect(payment.status).toBe('paid');

    await undo();
    t.clock.advance(7 * 3_600_000);
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    expect((await invoicesOf(t, accountId)).map((invoice) => invoice.number)).toEqual(['1']);
  });

  it('When money is charged back while the invoice is still owed, then the invoice issued later is credited too', async () => {
    expect((await setInvoicing('--prefix', 'C-', '--vat', '21')).code).toBe(0);
    await subscribe(t, token);
    const undo = await refuseNumbering();
    await billAndSettle(t, accountId, '2026-12-01');
    const [payment] = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
    await chargeBack(payment.id); // numbering still fails: nothing to credit yet
    expect(await t.ctx.db('credit_notes').where({ account_id: accountId })).toEqual([]);

    await undo();
    t.clock.advance(7 * 3_600_000);
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    await chargeBack(payment.id); // a repeated webhook adds nothing
    const [invoice] = await invoicesOf(t, accountId);
    const notes = await t.ctx.db('credit_notes').where({ account_id: accountId });
    expect(notes.map((note) => [note.number, note.invoice_id, Number(note.total_including_vat)])).toEqual([
      ['C-2', invoice.id, -Number(invoice.total_including_vat)],
    ]);
  });

  it('When a refund goes through while the invoice is still owed, then the invoice issued later is credited for it', async () => {
    expect((await setInvoicing('--prefix', 'R-', '--vat', '21')).code).toBe(0);
    await subscribe(t, token);
    const undo = await refuseNumbering();
    await billAndSettle(t, accountId, '2026-12-01');
    const [payment] = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
    const made = await request(t.app)
      .post(`/api/v2/payments/${payment.id}/refunds`)
      .set('Authorization', `Bearer ${token}`)
      .send({ amount: 5 });
    expect(made.status).toBe(201);
    await t.ctx.db('sandbox_refunds').where({ payment_id: payment.provider_payment_id }).update({ status: 'refunded' });
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
    expect((await t.ctx.db('refunds').where({ id: made.body.id }).first()).status).toBe('refunded');
    expect(await t.ctx.db('credit_notes').where({ account_id: accountId })).toEqual([]);

    await undo();
    t.clock.advance(7 * 3_600_000);
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    const [invoice] = await invoicesOf(t, accountId);
    const notes = await t.ctx.db('credit_notes').where({ account_id: accountId });
    expect(notes.map((note) => [note.number, note.invoice_id, note.reason, Number(note.total_including_vat)])).toEqual([
      ['R-2', invoice.id, 'refund', -500],
    ]);
  });

  it('When --next or --prefix would put the next number at or below one issued in that series, then set-invoicing refuses it', async () => {
    expect((await setInvoicing('--prefix', 'A-', '--next', '1', '--vat', '21')).code).toBe(0);
    await subscribe(t, token, { email: 'one@example.nl' });
    await subscribe(t, token, { email: 'two@example.nl' });
    await billAndSettle(t, accountId, '2026-12-01');
    const [first] = await invoicesOf(t, accountId);
    // A chargeback's credit note takes A-3 from the same series.
    await chargeBack(first.payment_id);
    const notes = await t.ctx.db('credit_notes').where({ account_id: accountId });
    expect(notes.map((note) => note.number)).toEqual(['A-3']);

    for (const options of [
      ['--next', '3'],
      ['--next', '1'],
      ['--prefix', 'A-', '--next', '2'],
    ]) {
      const refused = await setInvoicing(...options);
      expect([refused.code, refused.err]).toEqual([1, ['error: A-3 is issued already: the next number of series "A-" must be above 3']]);
    }
    expect((await t.ctx.db('invoice_settings').where({ account_id: accountId }).first()).next_number).toEqual(4);
    expect((await setInvoicing('--prefix', 'B-', '--next', '1')).code).toBe(0);
    const back = await setInvoicing('--prefix', 'A-'); // next stays 1: at or below A-3
    expect([back.code, back.err]).toEqual([1, ['error: A-3 is issued already: the next number of series "A-" must be above 3']]);
    expect((await setInvoicing('--prefix', 'A-', '--next', '4')).code).toBe(0);
  });

  it('When another series already holds the number the counter gives, then numbering skips it', async () => {
    expect((await setInvoicing('--prefix', 'A', '--next', '11', '--vat', '21')).code).toBe(0);
    await subscribe(t, token, { email: 'one@example.nl' });
    await billAndSettle(t, accountId, '2026-12-01');
    // Series "A1" from 1 spells A11 first: series "A" has it already.
    expect((await setInvoicing('--prefix', 'A1', '--next', '1')).code).toBe(0);
    await subscribe(t, token, { email: 'two@example.nl' });
    await billAndSettle(t, accountId, '2026-12-01');
    expect((await invoicesOf(t, accountId)).map((invoice) => [invoice.number, invoice.status])).toEqual([
      ['A11', 'issued'],
      ['A12', 'issued'],
    ]);
    expect(
      await t.ctx.db('document_numbers').where({ account_id: accountId }).orderBy('number').select('number', 'series', 'sequence', 'kind'),
    ).toEqual([
      { number: 'A11', series: 'A', sequence: 11, kind: 'invoice' },
      { number: 'A12', series: 'A1', sequence: 2, kind: 'invoice' },
    ]);
  });

  it('When a credit note would take a number an invoice holds, then the database refuses it: one key over both', async () => {
    expect((await setInvoicing('--vat', '21')).code).toBe(0);
    await subscribe(t, token);
    await billAndSettle(t, accountId, '2026-12-01');
    const [invoice] = await invoicesOf(t, accountId);
    // The refusal's message is read off whatever the insert rejects with. `rejects.toThrow` says "did not
    // throw" for a rejection it does not take for an Error, and so failed here in CI and under load.
    const refusal = await t.ctx
      .db('document_numbers')
      .insert({
        account_id: accountId,
        number: invoice.number,
        series: '',
        sequence: Number(invoice.number),
        kind: 'credit_note',
        created_at: '2026-12-01 07:00:00',
      })
      .then(
        () => 'inserted',
        (error: unknown) => (error instanceof Object && 'message' in error ? String(error.message) : String(error)),
      );
    expect(refusal).toMatch(/UNIQUE|Duplicate/i);
  });
});
