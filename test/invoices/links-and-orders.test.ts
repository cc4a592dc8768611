import request from 'supertest';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { useConnectedStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { payInSandbox } from '../support/storeCheckout';
import { useTestApp } from '../support/testApp';
import { invoicesOf } from '../support/invoices';

/**
 * Paid payment links and store orders are invoiced when the account wants them (`set-invoicing --links,
 * --orders`): a link as one line of what was paid, a store order with the lines the store invoiced and
 * its own VAT per line. Sandbox provider and the WooCommerce simulator.
 */
describe.each(TEST_DATABASES)('invoices of links and store orders on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  const shop = useConnectedStore(t);

  const accountName = async () => (await t.ctx.db('accounts').where({ id: shop.accountId }).first()).name as string;
  const setInvoicing = async (...args: string[]) =>
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', await accountName(), '--prefix', 'W-', ...args)).code).toBe(0);

  async function customer() {
    const res = await t.as(shop.token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    expect(res.status).toBe(201);
    return res.body as { id: string; provider_customer_id: string };
  }

  /** A payment link paid at the sandbox through its hosted page; answers the payment. */
  async function paidLink(body: Record<string, unknown>) {
    const payer = await customer();
    const link = await t
      .as(shop.token)
      .post('/api/v2/links', { type: 'payment', amount: 30.25, description: 'Workshop 12 March', customer_id: payer.id, ...body });
    expect(link.status).toBe(201);
    // The buyer presses pay on the link's page: its payment is made, then paid at the sandbox.
    expect((await request(t.app).post(`/pay/${link.body.id}`).type('form').send({})).status).toBe(303);
    const payment = await t.ctx.db('payments').where({ account_id: shop.accountId, purpose: 'link', purpose_id: link.body.id }).first();
    await payInSandbox(t, payment.provider_payment_id);
    return { linkId: link.body.id as string, paymentId: payment.id as string };
  }

  /** A pending store order as WooCommerce answers it with taxes on: two rates, shipping and a fee. */
  function taxedStoreOrder(taxes: { rateKnown: boolean } = { rateKnown: true }): number {
    const [coffee, book] = shop.store.addProducts(2, (index) =>
      index === 0
        ? { name: 'Coffee beans', price: '7.50', regular_price: '7.50' }
        : { name: 'Brewing guide', price: '20.00', regular_price: '20.00' },
    );
    return shop.store.addOrders(1, () => ({
      status: 'pending',
      total: '44.49',
      line_items: [
        {
          id: 11,
          name: 'Coffee beans',
          product_id: coffee,
          quantity: 2,
          total: '15.00',
          total_tax: '3.15',
          taxes: [{ id: 1, total: '3.15' }],
        },
        {
          id: 12,
          name: 'Brewing guide',
          product_id: book,
          quantity: 1,
          total: '20.00',
          total_tax: '1.80',
          taxes: [{ id: 2, total: '1.8' }],
        },
      ],
      shipping_lines: [
        { method_id: 'flat_rate', method_title: 'Flat rate', total: '3.50', total_tax: '0.74', taxes: [{ id: 1, total: '0.735' }] },
      ],
      fee_lines: [{ name: 'Gift wrap', total: '0.25', total_tax: '0.05', taxes: [{ id: 1, total: '0.0525' }] }],
      tax_lines: taxes.rateKnown
        ? [
            { id: 91, rate_id: 1, rate_code: 'NL-BTW-1', rate_percent: 21 },
            { id: 92, rate_id: 2, rate_code: 'NL-BTW LAAG-2', rate_percent: 9 },
          ]
        : [],
    }))[0] as number;
  }

  async function paidStoreOrder(shopOrderId: number, total: number) {
    const buyer = await customer();
    const payment = await t.as(shop.token).post('/api/v2/payments', {
      amount: total,
      currency: 'EUR',
      provider_customer_id: buyer.provider_customer_id,
      description: `Order ${shopOrderId}`,
      redirect_url: 'https://shop.example/checkout/order-received',
      shop_order_id: shopOrderId,
    });
    expect(payment.status).toBe(201);
    await payInSandbox(t, payment.body.provider_payment_id);
    return (await t.ctx.db('payments').where({ id: payment.body.id }).first()) as { id: string; purpose_id: string };
  }

  it('When links are not invoiced (the default), then a paid link gets no invoice; with --links on, one line of the amount', async () => {
    await setInvoicing('--vat', '21');
    await paidLink({});
    expect(await invoicesOf(t, shop.accountId)).toHaveLength(0);

    await setInvoicing('--links', 'on');
    const { linkId, paymentId } = await paidLink({ amount: 12.1, description: 'Tasting evening' });
    const [invoice] = await invoicesOf(t, shop.accountId);
    expect(invoice).toMatchObject({ link_id: linkId, subscription_id: null, charge_id: null, payment_key: paymentId, number: 'W-1' });
    const body = (await t.as(shop.token).get(`/api/v2/invoices/${invoice.id}`)).body;
    expect(body).toMatchObject({
      link_id: linkId,
      order_id: null,
      lines: [
        {
          quantity: 1,
          description: 'Tasting evening',
          vat: '21',
          total_excluding_vat: '10.00',
          total_vat: '2.10',
          total_including_vat: '12.10',
        },
      ],
    });
  });

  it('When orders are invoiced, then a paid store order’s invoice has the store’s lines, shipping and fee at their VAT rates', async () => {
    await setInvoicing('--orders', 'on');
    const shopOrderId = taxedStoreOrder();
    const payment = await paidStoreOrder(shopOrderId, 44.49);

    const [invoice] = await invoicesOf(t, shop.accountId);
    expect(invoice).toMatchObject({ order_id: payment.purpose_id, payment_key: payment.id, status: 'issued', number: 'W-1' });
    const body = (await t.as(shop.token).get(`/api/v2/invoices/${invoice.id}`)).body;
    expect(body.lines).toEqual([
      expect.objectContaining({
        description: 'Coffee beans',
        quantity: 2,
        amount: '7.50',
        vat: '21',
        total_vat: '3.15',
        total_including_vat: '18.15',
      }),
      expect.objectContaining({ description: 'Brewing guide', quantity: 1, vat: '9', total_vat: '1.80', total_including_vat: '21.80' }),
      expect.objectContaining({ description: 'Flat rate', vat: '21', total_excluding_vat: '3.50', total_vat: '0.74' }),
      expect.objectContaining({ description: 'Gift wrap', vat: '21', total_excluding_vat: '0.25', total_vat: '0.05' }),
    ]);
    expect(body.vat_totals).toEqual([
      { vat: '21', total_excluding_vat: '18.75', total_vat: '3.94', total_including_vat: '22.69' },
      { vat: '9', total_excluding_vat: '20.00', total_vat: '1.80', total_including_vat: '21.80' },
    ]);
    expect(body.total_including_vat).toBe('44.49');
  });

  it('When an invoiced store order is charged back (reported twice), then the order is charged_back: one note, one follow-up', async () => {
    await setInvoicing('--orders', 'on');
    const payment = await paidStoreOrder(taxedStoreOrder(), 44.49);
    const [invoice] = await invoicesOf(t, shop.accountId);
    const row = await t.ctx.db('payments').where({ id: payment.id }).first();
    // The order's status (fulfilment phase) moves before the credit note (invoices phase) in one transaction.
    await t.ctx.db('sandbox_payments').where({ id: row.provider_payment_id }).update({ status: 'charged_back', amount_charged_back: 4449 });
    const account = await t.ctx.db('accounts').where({ id: shop.accountId }).first();
    for (let call = 0; call < 2; call += 1) {
      await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: row.provider_payment_id });
      await processDueWebhookCalls(t.ctx, new AbortController().signal);
      await t.ctx.background.idle();
    }
    expect((await t.ctx.db('payments').where({ id: payment.id }).first()).status).toBe('charged_back');
    expect((await t.ctx.db('orders').where({ id: payment.purpose_id }).first()).status).toBe('charged_back');
    const body = (await t.as(shop.token).get(`/api/v2/invoices/${invoice.id}`)).body;
    expect(body.credit_notes).toEqual([expect.objectContaining({ reason: 'chargeback', number: 'W-2', total_including_vat: '-44.49' })]);
    expect(await t.ctx.db('follow_ups').where({ account_id: shop.accountId })).toEqual([
      expect.objectContaining({ kind: 'chargeback', payment_id: payment.id, amount: 4449, status: 'pending' }),
    ]);
  });

  it('When orders are not invoiced, or the store named no rate it taxed at, then no invoice, or one not issued, saying why', async () => {
    await paidStoreOrder(taxedStoreOrder(), 44.49);
    expect(await invoicesOf(t, shop.accountId)).toHaveLength(0);

    await setInvoicing('--orders', 'on');
    const events = ['accounts', 'set-webhook', '--account', await accountName(), '--url', 'https://merchant.example/events'];
    expect((await cli(t.ctx, ...events)).code).toBe(0);
    await paidStoreOrder(taxedStoreOrder({ rateKnown: false }), 44.49);
    const [invoice] = await invoicesOf(t, shop.accountId);
    expect(invoice).toMatchObject({
      status: 'not_issued',
      number: null,
      not_issued_reason: 'The store did not say the VAT rate of "Coffee beans"',
    });
    expect(await t.ctx.db('outbound_events').where({ account_id: shop.accountId, event: 'invoice.not_issued' })).toHaveLength(1);
  });

  it(
    'When a checkout starts a subscription beside a one-time line, then with orders invoiced the order has one invoice of both ' +
      'lines (its first charge none of its own); without, the first charge is invoiced alone as before',
    async () => {
      const recurringOrder = () => {
        const [club, mug] = shop.store.addProducts(2, (index) =>
          index === 0
            ? {
                name: 'Coffee club',
                price: '20.00',
                regular_price: '20.00',
                virtual: true,
                meta_data: [
                  { key: '_rps_recurring', value: 'yes' },
                  { key: '_rps_interval', value: 'month' },
                  { key: '_rps_interval_count', value: '1' },
                ],
              }
            : { name: 'Mug', price: '10.00', regular_price: '10.00', virtual: true },
        );
        const line = (id: number, productId: number | undefined, name: string, total: string, tax: string) => ({
          id,
          name,
          product_id: productId,
          quantity: 1,
          subtotal: total,
          subtotal_tax: tax,
          total,
          total_tax: tax,
          taxes: [{ id: 1, total: tax }],
        });
        return shop.store.addOrders(1, () => ({
          status: 'pending',
          total: '36.30',
          line_items: [line(1, club, 'Coffee club', '20.00', '4.20'), line(2, mug, 'Mug', '10.00', '2.10')],
          tax_lines: [{ id: 91, rate_id: 1, rate_percent: 21 }],
        }))[0] as number;
      };

      await setInvoicing();
      await paidStoreOrder(recurringOrder(), 36.3);
      expect(await invoicesOf(t, shop.accountId)).toEqual([
        expect.objectContaining({ charge_id: expect.any(String), order_id: null, total_including_vat: 2420, number: 'W-1' }),
      ]);

      await setInvoicing('--orders', 'on');
      const payment = await paidStoreOrder(recurringOrder(), 36.3);
      const invoices = await invoicesOf(t, shop.accountId);
      expect(invoices).toHaveLength(2);
      expect(invoices[1]).toMatchObject({ charge_id: null, order_id: payment.purpose_id, total_including_vat: 3630, number: 'W-2' });
      expect(JSON.parse(invoices[1].lines).map((line: { description: string }) => line.description)).toEqual(['Coffee club', 'Mug']);
      expect(await t.ctx.db('subscriptions').where({ account_id: shop.accountId })).toHaveLength(2);
    },
  );
});
