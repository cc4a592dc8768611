import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import request from 'supertest';
import type { Account } from '../../src/modules/accounts/account';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { billAsOf } from '../support/billing';
import { useConnectedStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { customerWithMandate } from '../support/mollieSubscriptions';
import { useTestApp, type TestApp } from '../support/testApp';

type Json = Record<string, unknown>;

// An import, a billing run and a settled charge each: slow on a loaded machine (MySQL above all).
jest.setTimeout(90_000);

/** The account's invoices through the API, oldest first, with their lines. */
async function invoicesOf(t: TestApp, token: string, accountId: string): Promise<Json[]> {
  const rows = await t.ctx.db('invoices').where({ account_id: accountId }).orderBy('seq');
  return Promise.all(rows.map(async (row) => (await t.as(token).get(`/api/v2/invoices/${row.id}`)).body as Json));
}

/** A 9 % invoice of 10.90: one line of 10.00 and 0.90 VAT. */
const ninePercent = (description: string) => ({
  status: 'issued',
  total_including_vat: '10.90',
  lines: [expect.objectContaining({ description, vat: '9', total_excluding_vat: '10.00', total_vat: '0.90' })],
});

const setInvoicing = async (t: TestApp, name: string) =>
  expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', name, '--prefix', 'I-', '--vat', '21')).code).toBe(0);

/**
 * Imported subscriptions are invoiced at the VAT the source charged (issue 36), never by splitting the
 * amount at the account's default rate (21 % here): a CSV file's `vat_rate` column (or the import's
 * option), a Mollie import's `vat_rate` option, WooCommerce Subscriptions' total and total tax. Without
 * one, their invoices are `not_issued` with the reason. The clock stands at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('the VAT of imported subscriptions on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  describe('from a CSV file (sandbox provider)', () => {
    let token: string;
    let accountId: string;
    let name: string;
    let counter = 0;

    beforeEach(async () => {
      t.clock.set('2026-11-21T10:00:00Z');
      counter += 1;
      name = `CSV VAT ${process.pid}-${counter}`;
      ({ token, accountId } = await t.newAccount(name));
      await setInvoicing(t, name);
    });

    const header = 'reference,signature_date,iban,account_holder,first_name,last_name,email,amount,interval,start,description,vat_rate';
    const row = (reference: string, vat: string) =>
      `${reference},2025-03-14,NL91ABNA0417164300,A. de Vries,Anna,de Vries,anna@example.nl,` +
      `10.90,month,2026-12-01,Magazine ${reference},${vat}`;

    /** Bills 2026-12-01 and has the sandbox settle each charge paid. */
    async function billAndSettle(): Promise<void> {
      await billAsOf(t.ctx, '2026-12-01');
      const publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref as string;
      for (const payment of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })) {
        await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: payment.provider_payment_id });
      }
      await processDueWebhookCalls(t.ctx, new AbortController().signal);
      await t.ctx.background.idle();
    }

    it('When a row names its vat_rate, then its charge is invoiced at it; a row without one is not issued, saying why', async () => {
      const res = await t
        .as(token)
        .post('/api/v2/imports', { source: 'csv', csv: [header, row('MAG-1', '9'), row('MAG-2', '')].join('\n') });
      expect(res.status).toBe(201);
      expect(res.body.counts).toMatchObject({ created: 2, failed: 0 });
      await billAndSettle();
      const invoices = await invoicesOf(t, token, accountId);
      expect(invoices).toHaveLength(2);
      expect(invoices.find((one) => one.status === 'issued')).toMatchObject(ninePercent('Magazine MAG-1'));
      expect(invoices.find((one) => one.status !== 'issued')).toMatchObject({
        status: 'not_issued',
        number: null,
        not_issued_reason: 'Imported from a CSV file without a VAT rate (its column vat_rate): the VAT its amount includes is not known',
      });
    });

    it('When the merchant then gives the imported subscription invoice rules, then its charges are invoiced by them', async () => {
      const res = await t.as(token).post('/api/v2/imports', { source: 'csv', csv: [header, row('MAG-5', '')].join('\n') });
      expect(res.body.counts).toMatchObject({ created: 1, failed: 0 });
      const [ours] = await t.ctx.db('subscriptions').where({ account_id: accountId });
      const invoiceRules = [{ quantity: 1, description: 'Magazine MAG-5', amount: 10, vat: '9' }];
      const rules = [{ amount: 10.9, interval: 'month', interval_amount: 1, invoice_rules: invoiceRules }];
      expect((await t.as(token).patch(`/api/v2/subscriptions/${ours.id}`, { rules })).status).toBe(200);
      await billAndSettle();
      expect(await invoicesOf(t, token, accountId)).toEqual([expect.objectContaining(ninePercent('Magazine MAG-5'))]);
    });

    it('When the CLI import names --vat-rate, then rows without a vat_rate are invoiced at it; a bad value fails its row', async () => {
      const path = `${tmpdir()}/vat-${process.pid}-${counter}.csv`;
      writeFileSync(path, [header, row('MAG-3', ''), row('MAG-4', 'nine')].join('\n'));
      const ran = await cli(t.ctx, 'import', 'csv', '--account', name, '--vat-rate', '9', path);
      expect(ran.code).toBe(0);
      expect(ran.out).toContainEqual('line 3 MAG-4: failed — vat_rate: "nine" is not a VAT percentage such as 21 or 9.');
      await billAndSettle();
      expect(await invoicesOf(t, token, accountId)).toEqual([expect.objectContaining(ninePercent('Magazine MAG-3'))]);
      expect((await cli(t.ctx, 'import', 'csv', '--account', name, '--vat-rate', '9 %', path)).err).toContainEqual(
        expect.stringContaining('--vat-rate must be a VAT percentage such as 21 or 9'),
      );
    });
  });

  describe("from Mollie's subscriptions (the Mollie fake)", () => {
    let mollie: MollieAccount;

    beforeEach(async () => {
      t.clock.set('2026-11-21T10:00:00Z');
      mollie = await accountAtMollieFake(t, 'Mollie VAT');
      await setInvoicing(t, mollie.name);
    });
    afterEach(() => mollie.stop());

    /** A subscription of 10.90 a month at Mollie, imported with `body`; its first charge here (2026-12-05) billed and paid. */
    async function importedAndCharged(body: Json): Promise<Json[]> {
      const anna = await customerWithMandate(mollie.fake);
      mollie.fake.seedSubscription(anna.customerId, {
        amount: 1090,
        interval: '1 month',
        description: 'Magazine',
        startDate: '2026-09-05',
        nextPaymentDate: '2026-12-05',
        mandateId: anna.mandateId,
      });
      const res = await t.as(mollie.token).post('/api/v2/imports', { source: 'mollie-subscriptions', ...body });
      expect(res.status).toBe(201);
      expect(res.body.counts).toMatchObject({ created: 1, failed: 0 });
      await billAsOf(t.ctx, '2026-12-05');
      const charge = await t.ctx.db('payments').where({ account_id: mollie.accountId, purpose: 'charge' }).first();
      mollie.fake.setPaymentStatus(charge.provider_payment_id, 'paid');
      await mollie.report(charge.provider_payment_id);
      return invoicesOf(t, mollie.token, mollie.accountId);
    }

    it('When the import names vat_rate 9, then the charges are invoiced at 9 %', async () => {
      expect(await importedAndCharged({ vat_rate: '9' })).toEqual([expect.objectContaining(ninePercent('Magazine'))]);
    });

    it('When the import names no vat_rate, then the invoices are not issued, saying why; a bad one is refused (422)', async () => {
      const bad = await t.as(mollie.token).post('/api/v2/imports', { source: 'mollie-subscriptions', vat_rate: '9 %' });
      expect(bad.status).toBe(422);
      expect(bad.body.fields.vat_rate).toBeDefined();
      expect(await importedAndCharged({})).toEqual([
        expect.objectContaining({
          status: 'not_issued',
          not_issued_reason: 'Imported from Mollie without a VAT rate (the import option vat_rate): the VAT it includes is not known',
        }),
      ]);
    });
  });

  describe('from WooCommerce Subscriptions (the WooCommerce simulator)', () => {
    const shop = useConnectedStore(t);

    beforeEach(async () => {
      t.clock.set('2026-11-21T10:00:00Z');
      const name = (await t.ctx.db('accounts').where({ id: shop.accountId }).first()).name as string;
      await setInvoicing(t, name);
    });

    it("When the store's subscription charges 10.90 with 0.90 tax, then ours is invoiced at the 9 % it derives", async () => {
      const account = (await t.ctx.db('accounts').where({ id: shop.accountId }).first()) as Account;
      const provider = await t.ctx.providers.forAccount(account);
      const customer = await provider.createCustomer(
        { name: 'Anna Jansen', email: 'anna@example.test', locale: null, reference: 'W' },
        'c-w',
      );
      const mandate = await provider.createMandate(
        {
          customerId: customer.id,
          consumerName: 'A. Jansen',
          consumerAccount: 'NL91ABNA0417164300',
          consumerBic: null,
          signatureDate: '2025-01-02',
          mandateReference: 'WCS-VAT',
        },
        'm-w',
      );
      const line = { id: 1, name: 'Coffee of the month', product_id: 14, variation_id: 0, quantity: 1, total: '10.00', total_tax: '0.90' };
      shop.store.addSubscription(
        { total: '10.90', total_tax: '0.90', next_payment_date_gmt: '2026-12-05T10:00:00', line_items: [line] },
        { _mollie_customer_id: customer.id, _mollie_mandate_id: mandate.id },
      );
      const res = await t.as(shop.token).post('/api/v2/imports', { source: 'woocommerce-subscriptions' });
      expect(res.status).toBe(201);
      expect(res.body.counts).toMatchObject({ created: 1, failed: 0 });
      const [ours] = await t.ctx.db('subscriptions').where({ account_id: shop.accountId, source: 'woocommerce-subscriptions' });
      expect(ours).toMatchObject({ next_amount: 1090, invoice_refusal: null });
      expect(await t.ctx.db('invoice_rules').where({ account_id: shop.accountId })).toEqual([
        expect.objectContaining({ description: 'Coffee of the month', quantity: 1, amount: 1000, vat: '9' }),
      ]);

      await billAsOf(t.ctx, '2026-12-05');
      const publicRef = account.public_ref;
      for (const payment of await t.ctx.db('payments').where({ account_id: shop.accountId, purpose: 'charge' })) {
        await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: payment.provider_payment_id });
      }
      await processDueWebhookCalls(t.ctx, new AbortController().signal);
      await t.ctx.background.idle();
      expect(await invoicesOf(t, shop.token, shop.accountId)).toEqual([expect.objectContaining(ninePercent('Coffee of the month'))]);
    });

    it("When a tax-inclusive store's subscription charges 10.00 with 1.74 tax, then ours is at its 21 %, not 21.1 %", async () => {
      // WooCommerce with prices entered with tax: 10.00 at 21 % is 8.26 + 1.74 (the tax rounded from the gross, not from 8.26).
      const account = (await t.ctx.db('accounts').where({ id: shop.accountId }).first()) as Account;
      const provider = await t.ctx.providers.forAccount(account);
      const customer = await provider.createCustomer({ name: 'Bea Smit', email: 'bea@example.test', locale: null, reference: 'I' }, 'c-i');
      const mandate = await provider.createMandate(
        {
          customerId: customer.id,
          consumerName: 'B. Smit',
          consumerAccount: 'NL91ABNA0417164300',
          consumerBic: null,
          signatureDate: '2025-01-02',
          mandateReference: 'WCS-INCL',
        },
        'm-i',
      );
      const line = { id: 1, name: 'Tea box', product_id: 15, variation_id: 0, quantity: 1, total: '8.26', total_tax: '1.74' };
      shop.store.addSubscription(
        { total: '10.00', total_tax: '1.74', next_payment_date_gmt: '2026-12-05T10:00:00', line_items: [line] },
        { _mollie_customer_id: customer.id, _mollie_mandate_id: mandate.id },
      );
      const res = await t.as(shop.token).post('/api/v2/imports', { source: 'woocommerce-subscriptions' });
      expect(res.body.counts).toMatchObject({ created: 1, failed: 0 });
      const rules = await t.ctx.db('invoice_rules').where({ account_id: shop.accountId });
      expect(rules.map((rule) => rule.vat)).toEqual(['21']);

      // Its renewal's invoice never names a rate the store did not charge (per-line rounding of 8.26 at 21 % gives 1.73, not 1.74).
      await billAsOf(t.ctx, '2026-12-05');
      for (const payment of await t.ctx.db('payments').where({ account_id: shop.accountId, purpose: 'charge' })) {
        await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
      }
      await processDueWebhookCalls(t.ctx, new AbortController().signal);
      await t.ctx.background.idle();
      const invoices = await invoicesOf(t, shop.token, shop.accountId);
      expect(invoices).toHaveLength(1);
      expect(invoices[0]?.lines).toEqual([expect.objectContaining({ vat: '21' })]);
      // Issued at the store's tax, so its lines add up to the 10.00 charged.
      expect(invoices[0]).toMatchObject({ status: 'issued', total_excluding_vat: '8.26', total_vat: '1.74', total_including_vat: '10.00' });
    });
  });
});
