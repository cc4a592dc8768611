import created from '../fixtures/woocommerce/subscription-created.json';
import manualBacs from '../fixtures/woocommerce/subscription-manual-bacs.json';
import { mapSubscription } from '../../src/integrations/woocommerce/subscriptions';
import { wooSubscription } from '../../src/integrations/woocommerce/schemas';

/** The real store's answers (WooCommerce Subscriptions 7.8.2, POST /wc/v3/subscriptions), read as the service reads them. */
describe('a WooCommerce Subscriptions subscription, mapped', () => {
  const read = (payload: unknown) => mapSubscription(wooSubscription.parse(payload));

  it('When the real store answers a subscription with Mollie meta, then its schedule, amount and Mollie ids are read', () => {
    expect(read(created)).toMatchObject({
      shopSubscriptionId: 15,
      status: 'active',
      interval: 'month',
      intervalCount: 1,
      nextPaymentAt: '2026-12-25 10:00:00',
      endAt: '2027-09-25 10:00:00',
      startAt: '2026-09-25 10:00:00',
      amountCents: 1500,
      taxCents: 0,
      currency: 'EUR',
      customer: { shopCustomerId: 2, email: 'anna@example.test', firstName: 'Anna', lastName: 'Jansen', country: 'NL' },
      lines: [{ shopProductId: 14, variationId: null, quantity: 1, amount: 1500 }],
      paymentMethod: 'mollie_wc_gateway_directdebit',
      provider: 'mollie',
      // The real store had no Mollie gateway, so it made the subscription manual (see docs/moving-over.md).
      requiresManualRenewal: true,
      providerCustomerId: 'cst_8wmqcHMN4U',
      providerMandateId: 'mdt_pWUnw6pkBN',
    });
  });

  it('When a subscription renews manually through another gateway, then no provider, no Mollie ids and no end are read', () => {
    expect(read(manualBacs)).toMatchObject({
      interval: 'week',
      intervalCount: 2,
      nextPaymentAt: '2026-12-01 09:00:00',
      endAt: null,
      amountCents: 3000,
      paymentMethod: 'bacs',
      provider: null,
      requiresManualRenewal: true,
      providerCustomerId: null,
      providerMandateId: null,
    });
  });

  it.each([
    ['pending', 'pending'],
    ['on-hold', 'on_hold'],
    ['pending-cancel', 'pending_cancel'],
    ['cancelled', 'cancelled'],
    ['expired', 'expired'],
    ['switched', 'other'],
  ])('When the status is %s, then it reads as %s and the store status is kept', (shopStatus, status) => {
    expect(read({ ...created, status: shopStatus })).toMatchObject({ status, shopStatus });
  });

  it('When taxes are on, then the amount is the total with tax and the tax is kept apart', () => {
    const taxed = {
      ...created,
      total: '18.15',
      total_tax: '3.15',
      line_items: [{ ...created.line_items[0], total: '15.00', total_tax: '3.15' }],
    };
    expect(read(taxed)).toMatchObject({ amountCents: 1815, taxCents: 315, lines: [{ amount: 1815 }] });
  });

  it('When Mollie meta is empty or the gateway is not Mollie, then no Mollie ids are read', () => {
    const emptyMeta = {
      ...created,
      meta_data: [
        { id: 1, key: '_mollie_customer_id', value: '' },
        { id: 2, key: '_mollie_mandate_id', value: '  ' },
      ],
    };
    expect(read(emptyMeta)).toMatchObject({ provider: 'mollie', providerCustomerId: null, providerMandateId: null });
    expect(read({ ...created, payment_method: 'rps' })).toMatchObject({
      provider: null,
      providerCustomerId: null,
      providerMandateId: null,
    });
  });

  it.each([
    ['an unknown billing period', { billing_period: 'fortnight' }, /billing_period/],
    ['an interval that is not a number', { billing_interval: 'one' }, /billing_interval/],
    ['a total that is not an amount', { total: 'free' }, /total is not an amount/],
  ])('When the store answers %s, then the record is refused with the field named', (_case, change, named) => {
    expect(() => read({ ...created, ...change })).toThrow(named);
  });

  it('When the interval is 0, then the record is refused', () => {
    expect(() => read({ ...created, billing_interval: '0' })).toThrow(/billing_interval/);
  });
});
