import { deliverDueMails } from '../../src/mail/delivery';
import { queueMail } from '../../src/mail/queue';
import type { LinkReminderData } from '../../src/mail/templates/linkReminder';
import { renderMail } from '../../src/mail/templates';
import { smtpTransportFor } from '../../src/mail/transport';
import { PAGE_LOCALES } from '../../src/i18n/locales';
import { TEST_DATABASES } from '../support/databases';
import { SmtpFake } from '../support/smtpFake';
import { useTestApp } from '../support/testApp';

const reminder: LinkReminderData = {
  merchantName: 'Bakkerij Jansen',
  customerName: 'Anna de Vries',
  description: 'Brood <script>alert(1)</script>',
  amountCents: 2500,
  currency: 'EUR',
  url: 'https://pay.example/pay/lnk_1',
  expiresAt: '2026-12-31',
};

describe('mail templates', () => {
  it.each(PAGE_LOCALES)(
    'When the link reminder is rendered in %s, then subject, text and HTML carry the merchant, the amount and the link',
    (locale) => {
      const mail = renderMail(locale, { template: 'link-reminder', data: reminder });
      expect(mail.subject).toContain('Bakkerij Jansen');
      expect(mail.text).toContain('https://pay.example/pay/lnk_1');
      expect(mail.text).toContain('Anna de Vries');
      expect(mail.text).toContain('2026');
      expect(mail.html).toContain(`<html lang="${locale}">`);
      expect(mail.html).toContain('href="https://pay.example/pay/lnk_1"');
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).toContain('&lt;script&gt;');
    },
  );

  it('When amounts are rendered, then each language writes them its own way', () => {
    const amountIn = (locale: (typeof PAGE_LOCALES)[number]) =>
      renderMail(locale, { template: 'link-reminder', data: { ...reminder, amountCents: 123450 } }).text;
    expect(amountIn('nl')).toContain('1.234,50\u00a0€');
    expect(amountIn('de')).toContain('1.234,50\u00a0€');
    expect(amountIn('en')).toContain('€1,234.50');
    expect(amountIn('nl')).toContain('31 december 2026');
    expect(amountIn('en')).toContain('December 31, 2026');
  });
});

describe.each(TEST_DATABASES)('the mail outbox on %s', (kind) => {
  const t = useTestApp(kind);
  let accountId: string;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    ({ accountId } = await t.newAccount());
  });
  beforeEach(() => t.ctx.db('outgoing_mails').delete());

  const queue = (overrides: { to?: string; dedupeKey?: string; locale?: string | null } = {}) =>
    queueMail(t.ctx.db, t.ctx, {
      accountId,
      to: overrides.to ?? 'anna@example.nl',
      locale: overrides.locale ?? 'nl',
      dedupeKey: overrides.dedupeKey,
      template: 'link-reminder',
      data: reminder,
    });

  it('When a mail is queued in a transaction that rolls back, then there is no mail', async () => {
    await t.ctx.db
      .transaction(async (trx) => {
        await queueMail(trx, t.ctx, { accountId, to: 'anna@example.nl', locale: 'nl', template: 'link-reminder', data: reminder });
        throw new Error('the cause of the mail failed');
      })
      .catch(() => undefined);
    expect(await t.ctx.db('outgoing_mails')).toHaveLength(0);
  });

  it('When a mail is queued twice with one dedupe key, then it exists once and both calls name it', async () => {
    const first = await queue({ dedupeKey: 'link-reminder:lnk_1' });
    const second = await queue({ dedupeKey: 'link-reminder:lnk_1' });
    expect(second).toBe(first);
    expect(await t.ctx.db('outgoing_mails')).toHaveLength(1);
  });

  it('When the locale is unknown, then the mail is in English', async () => {
    const id = await queue({ locale: 'pt' });
    expect(await t.ctx.db('outgoing_mails').where({ id }).first()).toMatchObject({
      locale: 'en',
      subject: 'Reminder: your payment to Bakkerij Jansen',
    });
  });

  it('When there is no SMTP_URL, then due mails are kept as stored and the log names no recipient, subject or body', async () => {
    const id = await queue({ to: 'private.person@example.nl' });
    t.logs.lines.length = 0;
    expect(await deliverDueMails(t.ctx, signal)).toEqual({ processed: 1, failed: 0 });
    expect(await t.ctx.db('outgoing_mails').where({ id }).first()).toMatchObject({ status: 'stored' });
    const log = t.logs.lines.join('\n');
    expect(log).toContain(id);
    expect(log).not.toContain('private.person');
    expect(log).not.toContain('Bakkerij');
  });

  describe('with an SMTP server', () => {
    let smtp: SmtpFake;
    let url: string;

    beforeAll(async () => {
      smtp = new SmtpFake();
      url = await smtp.start();
    });
    afterAll(() => smtp.stop());

    it('When the server takes the mail, then it is sent with MAIL_FROM, the recipient, subject, text and HTML', async () => {
      const id = await queue();
      const transport = smtpTransportFor({ ...t.ctx.config, SMTP_URL: url });
      expect(await deliverDueMails(t.ctx, signal, transport)).toEqual({ processed: 1, failed: 0 });
      expect(await t.ctx.db('outgoing_mails').where({ id }).first()).toMatchObject({ status: 'sent', attempts: 1 });
      const [received] = smtp.received.slice(-1);
      expect(received?.from).toBe('no-reply@localhost');
      expect(received?.to).toEqual(['anna@example.nl']);
      expect(received?.data).toContain('Subject: Herinnering: uw betaling aan Bakkerij Jansen');
      expect(received?.data).toContain('text/plain');
      expect(received?.data).toContain('text/html');
    });

    it('When the server refuses, then the mail is retried later with a generic error, and given up after 26 hours', async () => {
      const id = await queue();
      const transport = smtpTransportFor({ ...t.ctx.config, SMTP_URL: url });
      smtp.failWith = 550;
      try {
        expect(await deliverDueMails(t.ctx, signal, transport)).toEqual({ processed: 0, failed: 1 });
        const after = await t.ctx.db('outgoing_mails').where({ id }).first();
        expect(after).toMatchObject({ status: 'queued', attempts: 1, last_error: 'SMTP server answered 550' });
        expect(after.next_attempt_at > after.created_at).toBe(true);
        // Not due yet: nothing is tried.
        expect(await deliverDueMails(t.ctx, signal, transport)).toEqual({ processed: 0, failed: 0 });

        t.clock.advance(27 * 60 * 60 * 1000);
        await deliverDueMails(t.ctx, signal, transport);
        expect(await t.ctx.db('outgoing_mails').where({ id }).first()).toMatchObject({ status: 'failed', attempts: 2 });
      } finally {
        smtp.failWith = null;
      }
    });
  });
});
