import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { Response as AgentResponse } from 'superagent';
import { issueCreditNote } from '../../src/modules/invoices/creditNotes';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { billAndSettle, invoicesOf } from '../support/invoices';

const binary = (res: AgentResponse, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

describe.each(TEST_DATABASES)('credit notes on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    const name = `Credit notes ${Math.random().toString(36).slice(2, 8)}`;
    ({ token, accountId } = await t.newAccount(name));
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', name, '--prefix', 'A-', '--vat', '21')).code).toBe(0);
    await subscribe(t, token);
    await billAndSettle(t, accountId, '2026-12-01');
  });

  async function chargeBack(paymentId: string) {
    const payment = await t.ctx.db('payments').where({ id: paymentId }).first();
    await t.ctx
      .db('sandbox_payments')
      .where({ id: payment.provider_payment_id })
      .update({ status: 'charged_back', amount_charged_back: 1250 });
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  }

  it('When a paid charge is charged back, then a credit note with the next number and negative amounts credits its invoice', async () => {
    const [invoice] = await invoicesOf(t, accountId);
    await chargeBack(invoice.payment_id);
    await chargeBack(invoice.payment_id);
    expect((await t.ctx.db('payments').where({ id: invoice.payment_id }).first()).status).toBe('charged_back');

    const body = (await t.as(token).get(`/api/v2/invoices/${invoice.id}`)).body;
    expect(body.credit_notes).toEqual([
      expect.objectContaining({
        number: 'A-2',
        reason: 'chargeback',
        total_excluding_vat: '-10.33',
        total_vat: '-2.17',
        total_including_vat: '-12.50',
      }),
    ]);
    const pdf = await t.as(token).get(new URL(body.credit_notes[0].pdf_url).pathname).buffer(true).parse(binary);
    expect(pdf.status).toBe(200);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'credit-')), 'note.pdf');
    writeFileSync(file, pdf.body as Buffer);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    for (const word of ['Credit note', 'A-2', 'Credits invoice: A-1', '-€10.33', '-€12.50']) expect(text).toContain(word);
  });

  it('When a refund gives part back (twice under one source key), then one credit note splits it by the VAT rate', async () => {
    const [invoice] = await invoicesOf(t, accountId);
    const call = () =>
      t.ctx.db.transaction((trx) =>
        issueCreditNote(t.ctx, trx, { accountId, paymentId: invoice.payment_id, amount: 500, reason: 'refund', sourceKey: 'refund-re_1' }),
      );
    const first = await call();
    const again = await call();
    expect(again?.id).toBe(first?.id);
    const notes = await t.ctx.db('credit_notes').where({ account_id: accountId });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ number: 'A-2', invoice_id: invoice.id, reason: 'refund' });
    expect([notes[0].total_excluding_vat, notes[0].total_vat, notes[0].total_including_vat].map(Number)).toEqual([-413, -87, -500]);
    // A payment without an invoice gets none.
    const none = await t.ctx.db.transaction((trx) =>
      issueCreditNote(t.ctx, trx, { accountId, paymentId: 'tr_unknown', amount: 500, reason: 'refund', sourceKey: 'refund-re_2' }),
    );
    expect(none).toBeNull();
    expect(Number((await t.ctx.db('invoice_settings').where({ account_id: accountId }).first()).next_number)).toBe(3);
  });
});
