import { newId } from '../../src/ids';
import { toDbDateTime } from '../../src/time';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp, type TestApp } from '../support/testApp';
import { billAndSettle } from '../support/invoices';

interface Finding {
  invariant: string;
  message: string;
  rows: string[];
}
interface Report {
  account: string;
  violations: Finding[];
  todos: Finding[];
  notes: Finding[];
}

/** `cli audit --json` of one account (or all): its exit code and reports. */
async function audit(t: TestApp, ...args: string[]): Promise<{ code: number; reports: Report[]; err: string[] }> {
  const run = await cli(t.ctx, 'audit', '--json', ...args);
  return { code: run.code, reports: JSON.parse(run.out[run.out.length - 1] ?? '[]') as Report[], err: run.err };
}

describe.each(TEST_DATABASES)('the ledger audit on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let name: string;
  let paidCharge: { id: string; payment_id: string; subscription_id: string };
  let paidPayment: { id: string; provider_payment_id: string; customer_id: string };

  /** A busy account: invoicing, a paid charge, a failed one, a partial refund, a chargeback. */
  beforeEach(async () => {
    name = `Audit ${Math.random().toString(36).slice(2, 8)}`;
    ({ token, accountId } = await t.newAccount(name));
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', name, '--prefix', 'A-', '--vat', '21')).code).toBe(0);
    await subscribe(t, token, { email: 'paid@example.nl' });
    await subscribe(t, token, { email: 'charged-back@example.nl', rules: [{ amount: 20, interval: 'month', interval_amount: 1 }] });
    await subscribe(t, token, { email: 'failed@example.nl', rules: [{ amount: 10.13, interval: 'month', interval_amount: 1 }] });
    await billAndSettle(t, accountId, '2026-12-01');
    const charges = await t.ctx.db('subscription_charges').where({ account_id: accountId, status: 'paid' }).orderBy('amount');
    expect(charges.map((charge: { amount: number }) => Number(charge.amount))).toEqual([1250, 2000]);
    paidCharge = charges[0];
    paidPayment = await t.ctx.db('payments').where({ id: paidCharge.payment_id }).first();
    expect(await t.ctx.db('payments').where({ account_id: accountId, status: 'failed' })).toHaveLength(1);
    expect(
      (await t.as(token).post(`/api/v2/payments/${paidPayment.id}/refunds`).send({ amount: 5, description: 'Broken cup' })).status,
    ).toBe(201);
  });

  /** A credit note row of `accountId` numbered `number`, crediting nothing real (a row written on purpose). */
  async function insertCreditNote(owner: string, number: string, invoice: { id: string; payment_id: string }): Promise<string> {
    const id = newId('crn');
    await t.ctx.db('credit_notes').insert({
      id,
      account_id: owner,
      invoice_id: invoice.id,
      payment_id: invoice.payment_id,
      number,
      reason: 'chargeback',
      source_key: `chargeback-${id}`,
      currency: 'EUR',
      lines: '[]',
      total_excluding_vat: 0,
      total_vat: 0,
      total_including_vat: 0,
      document: '{}',
      created_at: '2026-12-01 08:00:00',
    });
    return id;
  }

  const violations = async (...args: string[]) => {
    const result = await audit(t, '--account', name, ...args);
    return { ...result, found: result.reports.flatMap((report) => report.violations) };
  };

  it('When the busy account is audited, then it is clean: exit 0, no violation, the printed summary says so', async () => {
    const run = await cli(t.ctx, 'audit', '--account', name);
    expect(run.err).toEqual([]);
    expect(run.out[0]).toBe(`account ${name}: 0 violations, 0 to do`);
    expect(run.code).toBe(0);
    const stored = await t.ctx.db('audit_reports').where({ account_id: accountId });
    expect(stored).toEqual([expect.objectContaining({ status: 'done', requested_via: 'cli', violations: 0 })]);
  });

  it('When a provider payment has our reference of no payment of ours, or a second one for a payment, then both are named', async () => {
    const row = await t.ctx.db('sandbox_payments').where({ id: paidPayment.provider_payment_id }).first();
    await t.ctx.db('sandbox_payments').insert({ ...row, id: 'tr_ghost', reference: 'pay_ghost', idempotency_key: 'ghost' });
    await t.ctx.db('sandbox_payments').insert({ ...row, id: 'tr_second', idempotency_key: 'second' });
    const { code, found } = await violations();
    expect(code).toBe(1);
    expect(found).toHaveLength(2);
    expect(found).toContainEqual(expect.objectContaining({ invariant: 'provider_payment_attached', rows: ['tr_ghost', 'pay_ghost'] }));
    expect(found).toContainEqual(
      expect.objectContaining({ invariant: 'provider_payment_attached', rows: expect.arrayContaining([paidPayment.id, 'tr_second']) }),
    );
  });

  it('When a period has a second payment that was not failed, then the period is reported with both payments', async () => {
    const second = { ...paidPayment, seq: undefined, id: newId('pay'), provider_payment_id: null, origin_key: null, in_progress_key: null };
    await t.ctx.db('payments').insert({ ...second, purpose: 'charge', purpose_id: paidCharge.id, status: 'pending' });
    const { code, found } = await violations();
    expect(code).toBe(1);
    expect(found).toEqual([
      expect.objectContaining({
        invariant: 'one_charge_per_period',
        rows: [paidCharge.subscription_id, paidCharge.id, paidPayment.id, second.id],
      }),
    ]);
  });

  it('When a period is charged after the subscription ended, or inside a pause made before the charge, then it is reported', async () => {
    await t.ctx.db('subscriptions').where({ id: paidCharge.subscription_id }).update({ cancel_at: '2026-11-30', status: 'cancelled' });
    const cancelled = await violations();
    expect(cancelled.found).toEqual([
      expect.objectContaining({ invariant: 'no_charge_after_end', rows: [paidCharge.subscription_id, paidCharge.id, paidPayment.id] }),
    ]);
    await t.ctx.db('subscriptions').where({ id: paidCharge.subscription_id }).update({ cancel_at: null, status: 'active' });
    await t.ctx.db('subscription_pauses').insert({
      id: newId('pau'),
      account_id: accountId,
      subscription_id: paidCharge.subscription_id,
      from_date: '2026-11-25',
      until_date: '2026-12-20',
      created_at: '2026-11-24 10:00:00',
      kind: 'pause',
    });
    const paused = await violations();
    expect(paused.found).toEqual([
      expect.objectContaining({ invariant: 'no_charge_after_end', rows: [paidCharge.subscription_id, paidCharge.id, paidPayment.id] }),
    ]);
  });

  it('When a paid charge has no invoice, then it is owed (a to-do) for a day, a violation after; a wrong VAT is a violation', async () => {
    const invoice = await t.ctx.db('invoices').where({ charge_id: paidCharge.id }).first();
    await t.ctx.db('credit_notes').where({ invoice_id: invoice.id }).delete();
    await t.ctx.db('invoices').where({ id: invoice.id }).update({ total_vat: 300, total_excluding_vat: 950 });
    const wrong = await violations();
    expect(wrong.found).toEqual([
      expect.objectContaining({ invariant: 'invoice_of_paid_charge', rows: [invoice.id, paidCharge.id, paidPayment.id] }),
    ]);

    await t.ctx.db('invoices').where({ id: invoice.id }).delete();
    t.clock.set('2026-12-01T12:00:00Z');
    const owed = await violations();
    // Its number is gone with it: a gap in the series (checked on its own), and nothing else.
    expect(owed.found.map((finding) => finding.invariant)).toEqual(['document_numbers']);
    expect(owed.reports[0]?.todos).toEqual([
      expect.objectContaining({ invariant: 'invoice_of_paid_charge', rows: [paidCharge.subscription_id, paidCharge.id, paidPayment.id] }),
    ]);
    t.clock.set('2026-12-03T12:00:00Z');
    const missing = await violations();
    expect(missing.found.filter((finding) => finding.invariant !== 'document_numbers')).toEqual([
      expect.objectContaining({ invariant: 'invoice_of_paid_charge', rows: [paidCharge.subscription_id, paidCharge.id, paidPayment.id] }),
    ]);
  });

  it('When an invoice is not issued with its reason, then it is a to-do and the audit passes', async () => {
    const invoice = await t.ctx.db('invoices').where({ charge_id: paidCharge.id }).first();
    await t.ctx.db('invoices').insert({
      ...invoice,
      seq: undefined,
      id: newId('ivc'),
      charge_id: null,
      payment_key: null,
      payment_id: paidPayment.id,
      number: null,
      status: 'not_issued',
      not_issued_reason: 'The invoice lines add up to 1 cents',
    });
    await t.ctx
      .db('invoices')
      .where({ id: invoice.id })
      .update({ status: 'not_issued', number: null, not_issued_reason: 'The store gave no rate' });
    await t.ctx.db('invoice_settings').where({ account_id: accountId }).decrement('next_number', 0);
    const { found, reports } = await violations();
    expect(found.filter((finding) => finding.invariant === 'invoice_of_paid_charge')).toEqual([]);
    expect(reports[0]?.todos).toContainEqual(
      expect.objectContaining({ invariant: 'invoice_of_paid_charge', message: expect.stringContaining('The store gave no rate') }),
    );
  });

  it('When a settled refund has no credit note, refunds exceed the payment, or the provider refunded otherwise: reported', async () => {
    const refund = await t.ctx.db('refunds').where({ payment_id: paidPayment.id }).first();
    await t.ctx.db('refunds').where({ id: refund.id }).update({ status: 'refunded' });
    await t.ctx.db('sandbox_payments').where({ id: paidPayment.provider_payment_id }).update({ amount_refunded: 500 });
    const noNote = await violations();
    expect(noNote.found).toEqual([expect.objectContaining({ invariant: 'credit_note_of_money_back', rows: [refund.id, paidPayment.id] })]);

    await t.ctx.db('refunds').insert({
      ...refund,
      id: newId('rfd'),
      amount: 1000,
      status: 'pending',
      origin_key: null,
      provider_refund_id: null,
      reference: null,
      // The payment's next refund: refunds are numbered on their payment (migration 056).
      sequence: Number(refund.sequence ?? 0) + 1,
    });
    await t.ctx.db('sandbox_payments').where({ id: paidPayment.provider_payment_id }).update({ amount_refunded: 2000 });
    const { found } = await violations();
    expect(found.map((finding) => finding.invariant)).toEqual([
      'refunds_within_paid',
      'refunds_match_provider',
      'credit_note_of_money_back',
    ]);
    expect(found[1]?.rows).toEqual(expect.arrayContaining([paidPayment.id, paidPayment.provider_payment_id, refund.id]));
  });

  it('When a refund was made at the provider only (its dashboard), then the provider refunded more than we did: reported', async () => {
    const other = await t.ctx.db('subscription_charges').where({ account_id: accountId, status: 'paid', amount: 2000 }).first();
    const payment = await t.ctx.db('payments').where({ id: other.payment_id }).first();
    await t.ctx.db('sandbox_payments').where({ id: payment.provider_payment_id }).update({ amount_refunded: 700 });
    const { found } = await violations();
    expect(found).toEqual([
      expect.objectContaining({ invariant: 'refunds_match_provider', rows: [payment.id, payment.provider_payment_id] }),
    ]);
  });

  it('When a mandate is revoked while a subscription of ours still charges it, then the mandate and subscription are named', async () => {
    const subscription = await t.ctx.db('subscriptions').where({ id: paidCharge.subscription_id }).first();
    await t.ctx.db('mandates').where({ id: subscription.provider_mandate_id }).update({ revoked_at: '2026-12-01 09:00:00' });
    const { found } = await violations();
    expect(found).toEqual([
      expect.objectContaining({ invariant: 'mandate_revoked_in_use', rows: [subscription.provider_mandate_id, subscription.id] }),
    ]);
  });

  it('When document numbers repeat or a number is missing, then they are reported; a gap the merchant made is a note', async () => {
    const invoices = await t.ctx.db('invoices').where({ account_id: accountId }).orderBy('seq');
    expect(invoices.map((invoice: { number: string }) => invoice.number)).toEqual(['A-1', 'A-2']);
    await cli(t.ctx, 'accounts', 'set-invoicing', '--account', name, '--next', '10');
    await billAndSettle(t, accountId, '2027-01-01');
    const moved = await violations();
    expect(moved.found).toEqual([]);
    expect(moved.reports[0]?.notes).toEqual([
      expect.objectContaining({
        invariant: 'document_numbers',
        message: expect.stringContaining('A-3 to A-9 were skipped: moved by the merchant'),
      }),
    ]);

    // A credit note given an invoice's number (one uniqueness for both), and an invoice renumbered past a gap.
    const note = await insertCreditNote(accountId, 'A-1', invoices[0]);
    await t.ctx.db('invoices').where({ id: invoices[1].id }).update({ number: 'A-3' });
    const repeated = await violations();
    expect(repeated.code).toBe(1);
    expect(repeated.found).toEqual([
      expect.objectContaining({ invariant: 'document_numbers', rows: [invoices[0].id, note] }),
      expect.objectContaining({ invariant: 'document_numbers', message: expect.stringContaining('numbers A-2 are missing') }),
    ]);
  });

  it('When --account and --since are given, then only that account and what was made since is audited; no other is read', async () => {
    const other = await t.newAccount(`Other ${Math.random().toString(36).slice(2, 8)}`);
    const otherName = (await t.ctx.db('accounts').where({ id: other.accountId }).first()).name;
    // The other account's provider has a payment with our payment's id, and a credit note with our invoice's number.
    const row = await t.ctx.db('sandbox_payments').where({ id: paidPayment.provider_payment_id }).first();
    await t.ctx.db('sandbox_payments').insert({ ...row, id: 'tr_other', account_id: other.accountId, idempotency_key: 'other' });
    await insertCreditNote(other.accountId, 'A-1', await t.ctx.db('invoices').where({ account_id: accountId }).first());

    expect((await violations()).found).toEqual([]);
    const theirs = await audit(t, '--account', otherName);
    // Its provider lists a payment of ours: accounts may share a provider account, so it is a note there, not a fault.
    expect(theirs.reports[0]?.violations).toEqual([]);
    expect(theirs.reports[0]?.notes).toEqual([expect.objectContaining({ invariant: 'provider_payment_attached', rows: ['tr_other'] })]);
    const all = await audit(t);
    expect(all.code).toBe(0);

    // A bad row from before --since is not read; from since on it is.
    await t.ctx.db('payments').where({ id: paidPayment.id }).update({ created_at: '2026-11-20 10:00:00' });
    await t.ctx
      .db('sandbox_payments')
      .where({ id: paidPayment.provider_payment_id })
      .update({ created_at: toDbDateTime(new Date('2026-11-20T10:00:00Z')) });
    await t.ctx.db('subscription_charges').where({ id: paidCharge.id }).update({ due_date: '2026-11-20' });
    await t.ctx.db('subscriptions').where({ id: paidCharge.subscription_id }).update({ cancel_at: '2026-11-19', status: 'cancelled' });
    expect((await violations('--since', '2026-11-25')).found).toEqual([]);
    expect((await violations('--since', '2026-11-15')).found).toContainEqual(expect.objectContaining({ invariant: 'no_charge_after_end' }));
    expect((await cli(t.ctx, 'audit', '--since', '25-11-2026')).err).toEqual(['error: --since is a date, YYYY-MM-DD']);
  });
});
