import { invoiceSettingsRepository } from '../../src/modules/invoices/settingsRepository';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { billAndSettle, invoicesOf } from '../support/invoices';

describe.each(TEST_DATABASES)('invoice numbers and issuing on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let accountName: string;

  beforeEach(async () => {
    accountName = `Invoicing ${Math.random().toString(36).slice(2, 8)}`;
    ({ token, accountId } = await t.newAccount(accountName));
  });

  const setInvoicing = async (...options: string[]) => {
    const result = await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, ...options);
    expect(result.code).toBe(0);
    return result;
  };

  it('When charges without invoice rules are paid, then each gets the next number and a line at the default VAT rate', async () => {
    const result = await setInvoicing(
      ...['--prefix', '2026-', '--next', '1', '--vat', '21', '--address', 'Keizersgracht 1', '--postal-code', '1015 AA'],
      ...['--city', 'Amsterdam', '--country', 'nl', '--vat-number', 'NL123456789B01'],
    );
    expect(result.out.join('\n')).toContain('2026-1');
    await subscribe(t, token, { email: 'one@example.nl' });
    await subscribe(t, token, { email: 'two@example.nl' });
    await billAndSettle(t, accountId, '2026-12-01');
    await billAndSettle(t, accountId, '2026-12-01'); // the same status again: no second invoice

    const invoices = await invoicesOf(t, accountId);
    expect(invoices.map((invoice) => [invoice.number, invoice.status])).toEqual([
      ['2026-1', 'issued'],
      ['2026-2', 'issued'],
    ]);
    // 12.50 including 21 %: 10.33 + 2.17, adding up to exactly what was charged.
    expect(JSON.parse(invoices[0].lines)).toEqual([
      expect.objectContaining({
        quantity: 1,
        description: 'Coffee box',
        vat: '21',
        total_excluding_vat: 1033,
        total_vat: 217,
        total_including_vat: 1250,
      }),
    ]);
    expect(Number(invoices[0].total_including_vat)).toBe(1250);
    const payment = await t.ctx.db('payments').where({ id: invoices[0].payment_id }).first();
    const document = JSON.parse(invoices[0].document);
    expect(document).toMatchObject({
      kind: 'invoice',
      number: '2026-1',
      issued_on: '2026-12-01',
      locale: 'en',
      seller: {
        name: accountName,
        address: 'Keizersgracht 1',
        postal_code: '1015 AA',
        city: 'Amsterdam',
        country: 'NL',
        vat_number: 'NL123456789B01',
      },
      buyer: { name: 'Anna de Vries' },
      payment_reference: payment.provider_payment_id,
      vat_totals: [{ vat: '21', total_excluding_vat: 1033, total_vat: 217, total_including_vat: 1250 }],
      reverse_charge: false,
      oss_country: null,
    });
    expect((await t.ctx.db('invoice_settings').where({ account_id: accountId }).first()).next_number).toEqual(3);
  });

  it(
    'When the invoice lines do not add up to the amount charged, then the invoice is kept unnumbered with the reason, ' +
      'the merchant gets an event and the next number is not skipped',
    async () => {
      expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', accountName, '--url', 'https://merchant.example/events')).code).toBe(
        0,
      );
      await setInvoicing('--prefix', 'F', '--next', '7');
      await subscribe(t, token, {
        email: 'wrong@example.nl',
        rules: [
          {
            amount: 15,
            interval: 'month',
            interval_amount: 1,
            invoice_rules: [{ quantity: 1, description: 'Box', amount: 10, vat: '21' }],
          },
        ],
      });
      await subscribe(t, token, { email: 'right@example.nl' });
      await billAndSettle(t, accountId, '2026-12-01');

      const invoices = await invoicesOf(t, accountId);
      const wrong = invoices.find((invoice) => invoice.status === 'not_issued');
      expect(wrong).toMatchObject({ number: null, not_issued_reason: expect.stringContaining('1210 cents') });
      expect(wrong.not_issued_reason).toContain('1500 cents');
      expect(invoices.filter((invoice) => invoice.status === 'issued').map((invoice) => invoice.number)).toEqual(['F7']);
      const events = await t.ctx.db('outbound_events').where({ account_id: accountId, event: 'invoice.not_issued' });
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0].payload)).toMatchObject({ id: wrong.id, reason: wrong.not_issued_reason });
    },
  );

  it('When the transaction that took a number dies before it commits, then the number is taken again: no gap', async () => {
    await setInvoicing('--prefix', 'G', '--next', '1');
    const died = t.ctx.db.transaction(async (trx) => {
      expect((await invoiceSettingsRepository.takeNumber(trx, accountId, '2026-12-01 06:00:00')).number).toBe('G1');
      throw new Error('killed halfway');
    });
    await expect(died).rejects.toThrow('killed halfway');
    await subscribe(t, token);
    await billAndSettle(t, accountId, '2026-12-01');
    expect((await invoicesOf(t, accountId)).map((invoice) => invoice.number)).toEqual(['G1']);
  });

  it('When set-invoicing is given a bad value, then it is refused and nothing changes', async () => {
    for (const bad of [
      ['--next', '0'],
      ['--vat', 'abc'],
      ['--oss', 'yes'],
      ['--mail-when-paid', 'on'],
      ['--country', 'NLD'],
    ]) {
      expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, ...bad)).code).not.toBe(0);
    }
    expect(await t.ctx.db('invoice_settings').where({ account_id: accountId })).toEqual([]);
  });
});
