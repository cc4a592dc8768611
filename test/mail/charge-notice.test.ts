import { renderMail } from '../../src/mail/templates';
import type { ChargeNoticeData } from '../../src/mail/templates/chargeNotice';
import { PAGE_LOCALES } from '../../src/i18n/locales';

const notice: ChargeNoticeData = {
  merchantName: 'Koffieclub',
  contactEmail: 'hallo@koffieclub.nl',
  customerName: 'Anna de Vries',
  description: 'Coffee box',
  amountCents: 1250,
  currency: 'EUR',
  chargeDate: '2026-12-01',
  mandateReference: 'KC-2026-0001',
  creditorId: 'DE98ZZZ09999999999',
  portalUrl: 'https://pay.example/portal',
};

describe('the charge notice (SEPA pre-notification)', () => {
  it.each(PAGE_LOCALES)(
    'When it is rendered in %s, then it names amount, date, mandate reference, creditor id, contact e-mail and links to the portal',
    (locale) => {
      const mail = renderMail(locale, { template: 'charge-notice', data: notice });
      for (const text of [
        '12',
        '2026',
        'KC-2026-0001',
        'DE98ZZZ09999999999',
        'hallo@koffieclub.nl',
        'https://pay.example/portal',
        'Coffee box',
      ]) {
        expect(mail.text).toContain(text);
      }
      expect(mail.html).toContain('href="https://pay.example/portal"');
      expect(mail.html).toContain('DE98ZZZ09999999999');
    },
  );

  it('When the account set no creditor id or contact e-mail, then neither sentence is written', () => {
    const mail = renderMail('en', { template: 'charge-notice', data: { ...notice, creditorId: null, contactEmail: null } });
    expect(mail.text).not.toContain('Creditor identifier');
    expect(mail.text).not.toContain('Questions?');
    expect(mail.text).toContain('Mandate reference: KC-2026-0001.');
    expect(mail.text).toContain('Koffieclub will debit €12.50 from your account on or shortly after December 1, 2026 for "Coffee box".');
  });
});
