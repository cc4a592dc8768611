import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { deliverDueMails } from '../../src/mail/delivery';
import { queueMail } from '../../src/mail/queue';
import { renderMail } from '../../src/mail/templates';
import { smtpTransportFor } from '../../src/mail/transport';
import { PAGE_LOCALES } from '../../src/i18n/locales';
import { documentAttachment } from '../../src/modules/invoices/mails';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { SmtpFake } from '../support/smtpFake';
import { useTestApp } from '../support/testApp';
import { billAndSettle, invoicesOf } from '../support/invoices';

/** The PDF attached to a received mail, as pdftotext reads it. */
function attachedPdfText(data: string): string {
  const part = /Content-Type: application\/pdf[^]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n(?:--|\r\n|$)/.exec(data);
  expect(part).not.toBeNull();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'mailed-')), 'document.pdf');
  writeFileSync(file, Buffer.from((part?.[1] ?? '').replace(/\s+/g, ''), 'base64'));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('the invoice mail', () => {
  it.each(PAGE_LOCALES)('When it is rendered in %s, then it names the document, its number, date and amount in that language', (locale) => {
    const data = {
      merchantName: 'Koffieclub',
      contactEmail: 'hallo@koffieclub.nl',
      customerName: 'Anna de Vries',
      number: '2026-7',
      issuedOn: '2026-12-01',
      amountCents: 123450,
      currency: 'EUR',
      portalUrl: 'https://pay.example/portal',
    };
    const invoice = renderMail(locale, { template: 'invoice', data: { ...data, kind: 'invoice' } });
    const credit = renderMail(locale, { template: 'invoice', data: { ...data, kind: 'credit_note' } });
    for (const mail of [invoice, credit]) {
      expect(mail.subject).toContain('2026-7');
      expect(mail.subject).toContain('Koffieclub');
      expect(mail.text).toContain('2026');
      expect(mail.text).toMatch(/1\D?234[.,]50/);
      expect(mail.text).toContain('hallo@koffieclub.nl');
      expect(mail.html).toContain(`<html lang="${locale}">`);
    }
    expect(credit.subject).not.toBe(invoice.subject);
  });
});

/** With `set-invoicing --mail on` the customer gets each invoice and credit note by e-mail, its PDF attached. */
describe.each(TEST_DATABASES)('invoices by e-mail on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let smtp: SmtpFake;
  let url: string;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    smtp = new SmtpFake();
    url = await smtp.start();
  });
  afterAll(() => smtp.stop());

  async function accountInvoicing(...options: string[]) {
    const name = `Mailed invoices ${Math.random().toString(36).slice(2, 8)}`;
    const { token, accountId } = await t.newAccount(name);
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', name, '--prefix', 'M-', '--vat', '21', ...options)).code).toBe(0);
    return { token, accountId };
  }
  const deliver = () => deliverDueMails(t.ctx, signal, smtpTransportFor({ ...t.ctx.config, SMTP_URL: url }), documentAttachment);

  it('When an invoice is issued and later credited, then the customer is mailed each with its PDF attached, once', async () => {
    const { token, accountId } = await accountInvoicing('--mail', 'on');
    await subscribe(t, token, { email: 'anna@example.nl' });
    await billAndSettle(t, accountId, '2026-12-01');
    const [invoice] = await invoicesOf(t, accountId);
    const queued = await t.ctx.db('outgoing_mails').where({ account_id: accountId });
    expect(queued).toEqual([
      expect.objectContaining({
        recipient: 'anna@example.nl',
        template: 'invoice',
        subject: 'Invoice M-1 from ' + (await t.ctx.db('accounts').where({ id: accountId }).first()).name,
        attachment: `invoice:${invoice.id}`,
        dedupe_key: `invoice:${invoice.id}`,
      }),
    ]);

    const before = smtp.received.length;
    expect(await deliver()).toEqual({ processed: 1, failed: 0 });
    const [mail] = smtp.received.slice(before);
    expect(mail?.to).toEqual(['anna@example.nl']);
    expect(mail?.data).toContain('filename=Invoice-M-1.pdf');
    expect(attachedPdfText(mail?.data ?? '')).toMatch(/Invoice[^]*M-1[^]*€12\.50/);

    // The bank takes it back: a credit note, mailed too.
    const payment = await t.ctx.db('payments').where({ id: invoice.payment_id }).first();
    await t.ctx
      .db('sandbox_payments')
      .where({ id: payment.provider_payment_id })
      .update({ status: 'charged_back', amount_charged_back: 1250 });
    const { public_ref: ref } = await t.ctx.db('accounts').where({ id: accountId }).first();
    for (let time = 0; time < 2; time += 1) {
      await request(t.app).post(`/webhooks/mollie?account=${ref}`).type('form').send({ id: payment.provider_payment_id });
      await processDueWebhookCalls(t.ctx, signal);
    }
    await t.ctx.background.idle();
    expect(await deliver()).toEqual({ processed: 1, failed: 0 });
    const [credit] = smtp.received.slice(before + 1);
    expect(credit?.data).toContain('filename=Credit_note-M-2.pdf');
    expect(attachedPdfText(credit?.data ?? '')).toMatch(/Credit note[^]*M-2[^]*Credits invoice: M-1/);
    expect(await t.ctx.db('outgoing_mails').where({ account_id: accountId, template: 'invoice' })).toHaveLength(2);
  });

  it('When the account does not mail invoices (the default), then an issued invoice queues no mail', async () => {
    const { token, accountId } = await accountInvoicing();
    await subscribe(t, token);
    await billAndSettle(t, accountId, '2026-12-01');
    expect(await invoicesOf(t, accountId)).toHaveLength(1);
    expect(await t.ctx.db('outgoing_mails').where({ account_id: accountId })).toHaveLength(0);
  });

  it('When the document a mail names cannot be drawn, then the mail is not sent without it: the attempt fails and is retried', async () => {
    const { accountId } = await accountInvoicing('--mail', 'on');
    const id = await queueMail(t.ctx.db, t.ctx, {
      accountId,
      to: 'anna@example.nl',
      locale: 'en',
      template: 'invoice',
      data: {
        merchantName: 'Koffieclub',
        contactEmail: null,
        customerName: null,
        kind: 'invoice',
        number: 'M-9',
        issuedOn: '2026-12-01',
        amountCents: 1250,
        currency: 'EUR',
        portalUrl: 'https://pay.example/portal',
      },
      attachment: 'invoice:ivc_missing',
    });
    const before = smtp.received.length;
    expect(await deliver()).toEqual({ processed: 0, failed: 1 });
    expect(smtp.received.length).toBe(before);
    expect(await t.ctx.db('outgoing_mails').where({ id }).first()).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: 'its attachment could not be drawn',
    });
  });
});
