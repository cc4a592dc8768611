import { EU_VAT_RATES_VALID_FROM, euStandardVatRate } from '../../src/money/euVatRates';
import { splitInclusive } from '../../src/money/vat';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { billAndSettle } from '../support/invoices';

describe('VAT of an amount including it, and the EU standard rates', () => {
  it('When an inclusive amount is split, then excluding + VAT is exactly the amount', () => {
    expect(splitInclusive(1250, '21')).toEqual({ excluding: 1033, vat: 217 });
    expect(splitInclusive(1000, '19')).toEqual({ excluding: 840, vat: 160 });
    expect(splitInclusive(-500, '21')).toEqual({ excluding: -413, vat: -87 });
    expect(splitInclusive(999, null)).toEqual({ excluding: 999, vat: 0 });
    for (let cents = 1; cents < 3000; cents += 7) {
      const split = splitInclusive(cents, '25.5');
      expect(split.excluding + split.vat).toBe(cents);
    }
  });

  it('When a country is looked up, then its standard rate from the dated table answers; outside the EU none', () => {
    expect(EU_VAT_RATES_VALID_FROM).toBe('2025-08-01');
    expect([euStandardVatRate('de'), euStandardVatRate('FI'), euStandardVatRate('EL'), euStandardVatRate('RO')]).toEqual([
      '19',
      '25.5',
      '24',
      '21',
    ]);
    expect([euStandardVatRate('GB'), euStandardVatRate('US'), euStandardVatRate(null)]).toEqual([null, null, null]);
  });
});

describe.each(TEST_DATABASES)('VAT, OSS and reverse charge on invoices on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let accountName: string;

  beforeEach(async () => {
    accountName = `OSS ${Math.random().toString(36).slice(2, 8)}`;
    ({ token, accountId } = await t.newAccount(accountName));
  });

  async function invoiceOfCustomerIn(country: string, vatNumber: string | null) {
    const { customerId } = await subscribe(t, token, { email: `${country}@example.nl` });
    await t.ctx.db('customers').where({ id: customerId }).update({ country, vat_number: vatNumber });
    return customerId;
  }

  it('When OSS is on, then a consumer in another EU country pays its rate, a business there is reverse-charged', async () => {
    const options = ['--vat', '21', '--country', 'NL', '--oss', 'on'];
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, ...options)).code).toBe(0);
    const consumer = await invoiceOfCustomerIn('DE', null);
    const business = await invoiceOfCustomerIn('BE', 'BE0123456789');
    const home = await invoiceOfCustomerIn('NL', null);
    const outside = await invoiceOfCustomerIn('US', null);
    await billAndSettle(t, accountId, '2026-12-01');
    const of = async (customerId: string) => (await t.as(token).get(`/api/v2/invoices?customer_id=${customerId}`)).body.data[0];

    expect(await of(consumer)).toMatchObject({
      oss_country: 'DE',
      reverse_charge: false,
      vat_totals: [{ vat: '19', total_excluding_vat: '10.50', total_vat: '2.00', total_including_vat: '12.50' }],
    });
    expect(await of(business)).toMatchObject({
      oss_country: null,
      reverse_charge: true,
      vat_totals: [{ vat: '0', total_excluding_vat: '12.50', total_vat: '0.00', total_including_vat: '12.50' }],
    });
    expect(await of(home)).toMatchObject({
      oss_country: null,
      reverse_charge: false,
      vat_totals: [expect.objectContaining({ vat: '21' })],
    });
    expect(await of(outside)).toMatchObject({ oss_country: null, vat_totals: [expect.objectContaining({ vat: '21' })] });
  });

  it('When OSS is off, then a consumer abroad pays the default rate; a business abroad is still reverse-charged', async () => {
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, '--vat', '21', '--country', 'NL')).code).toBe(0);
    const consumer = await invoiceOfCustomerIn('FR', null);
    const business = await invoiceOfCustomerIn('FR', 'FR12345678901');
    await billAndSettle(t, accountId, '2026-12-01');
    const of = async (customerId: string) => (await t.as(token).get(`/api/v2/invoices?customer_id=${customerId}`)).body.data[0];
    expect(await of(consumer)).toMatchObject({
      oss_country: null,
      vat_totals: [expect.objectContaining({ vat: '21', total_vat: '2.17' })],
    });
    expect(await of(business)).toMatchObject({ reverse_charge: true, total_vat: '0.00', total_including_vat: '12.50' });
  });
});
