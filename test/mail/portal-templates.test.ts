import { deliverDueMails } from '../../src/mail/delivery';
import { queueMail } from '../../src/mail/queue';
import { renderMail, type TemplateAndData } from '../../src/mail/templates';
import { PAGE_LOCALES, type PageLocale } from '../../src/i18n/locales';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const merchant = { merchantName: 'Koffieclub <Utrecht>', contactEmail: 'hallo@koffieclub.nl', customerName: 'Anna de Vries' };
const portalUrl = 'https://pay.example/portal';

/** One of each portal mail, with what it must say in every language (besides the merchant and contact). */
const MAILS: Array<{ mail: TemplateAndData; says: string[] }> = [
  {
    mail: { template: 'portal-login', data: { ...merchant, url: 'https://pay.example/portal/login/tok123', validMinutes: 60 } },
    says: ['https://pay.example/portal/login/tok123', '60'],
  },
  {
    mail: {
      template: 'portal-cancelled',
      data: { ...merchant, portalUrl, subscription: 'Coffee box', endsOn: '2027-01-31', reason: 'Moving abroad' },
    },
    says: ['Coffee box', '2027', '31', 'Moving abroad'],
  },
  {
    mail: { template: 'portal-paused', data: { ...merchant, portalUrl, subscription: 'Coffee box', pausedUntil: '2027-02-15' } },
    says: ['Coffee box', '15', '2027'],
  },
  {
    mail: { template: 'portal-resumed', data: { ...merchant, portalUrl, subscription: 'Coffee box', nextChargeDate: '2027-03-01' } },
    says: ['Coffee box', '2027'],
  },
  {
    mail: {
      template: 'portal-skipped',
      data: { ...merchant, portalUrl, subscription: 'Coffee box', skippedDate: '2027-04-01', nextChargeDate: '2027-05-01' },
    },
    says: ['Coffee box', '2027'],
  },
  {
    mail: {
      template: 'portal-method-changed',
      data: { ...merchant, portalUrl, mandateLabel: 'NL** **** **** **43 00', subscriptions: ['Coffee box', 'Tea box'] },
    },
    says: ['NL** **** **** **43 00', 'Coffee box, Tea box'],
  },
];

const inEveryLocale = MAILS.flatMap(({ mail, says }) => PAGE_LOCALES.map((locale) => [mail.template, locale, mail, says] as const));

describe('portal mail templates', () => {
  it.each(inEveryLocale)(
    'When %s is rendered in %s, then it names the merchant, the contact e-mail and what happened, escaped in HTML',
    (_name, locale: PageLocale, mail, says) => {
      const rendered = renderMail(locale, mail);
      expect(rendered.subject).toContain('Koffieclub <Utrecht>');
      for (const text of [...says, 'Anna de Vries', 'hallo@koffieclub.nl', 'Koffieclub <Utrecht>']) expect(rendered.text).toContain(text);
      expect(rendered.html).toContain(`<html lang="${locale}">`);
      expect(rendered.html).toContain('Koffieclub &lt;Utrecht&gt;');
      expect(rendered.html).not.toContain('<Utrecht>');
      expect(rendered.html).toContain('hallo@koffieclub.nl');
      if (mail.template !== 'portal-login') expect(rendered.html).toContain(`href="${portalUrl}"`);
      // Every language has its own words: no English sentence leaks into another locale.
      if (locale !== 'en') expect(rendered.subject).not.toBe(renderMail('en', mail).subject);
    },
  );

  it('When the merchant has no contact e-mail, then no contact sentence is written', () => {
    const mail = renderMail('en', {
      template: 'portal-paused',
      data: { ...merchant, contactEmail: null, portalUrl, subscription: 'Coffee box', pausedUntil: '2027-02-15' },
    });
    expect(mail.text).not.toContain('Questions?');
    expect(mail.text).toContain('You paused "Coffee box" until February 15, 2027.');
  });

  it('When the log-in link is rendered, then it says to ignore it if not asked for, and when it expires', () => {
    const mail = renderMail('en', MAILS[0]!.mail);
    expect(mail.text).toContain('The link works once and expires in 60 minutes.');
    expect(mail.text).toContain('Did you not ask for this link? Then you can ignore this e-mail');
    expect(mail.html).toContain('href="https://pay.example/portal/login/tok123"');
  });

  it('When a cancel has no reason, then no reason sentence is written; with one, it is quoted', () => {
    const base = { ...merchant, portalUrl, subscription: 'Coffee box', endsOn: '2027-01-31' };
    expect(renderMail('en', { template: 'portal-cancelled', data: { ...base, reason: null } }).text).not.toContain('Your reason');
    const withReason = renderMail('nl', { template: 'portal-cancelled', data: { ...base, reason: '  Te duur ' } }).text;
    expect(withReason).toContain('Uw reden: "Te duur".');
    expect(withReason).toContain('Het loopt tot 31 januari 2027');
  });
});

describe.each(TEST_DATABASES)('portal mails in the outbox on %s', (kind) => {
  const t = useTestApp(kind);

  it('When each portal mail is queued and kept without SMTP, then the log names no address, name, IBAN label or link', async () => {
    const { accountId } = await t.newAccount();
    t.logs.lines.length = 0;
    for (const { mail } of MAILS) await queueMail(t.ctx.db, t.ctx, { accountId, to: 'anna.private@example.nl', locale: 'de', ...mail });
    await deliverDueMails(t.ctx, new AbortController().signal);
    const stored = await t.ctx.db('outgoing_mails').where({ account_id: accountId });
    expect(stored.map((row) => row.template).sort()).toEqual(MAILS.map(({ mail }) => mail.template).sort());
    const log = t.logs.lines.join('\n');
    expect(log).toContain(stored[0].id);
    for (const secret of ['anna.private', 'Anna de Vries', 'hallo@koffieclub', '43 00', 'tok123', 'Moving abroad', 'Koffieclub']) {
      expect(log).not.toContain(secret);
    }
  });
});
