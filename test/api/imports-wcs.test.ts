import request from 'supertest';
import type { Account } from '../../src/modules/accounts/account';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';
import { cli } from '../cli/runInMemory';
import { useConnectedStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const IBAN = 'NL91ABNA0417164300';
type Json = Record<string, unknown>;

/**
 * `woocommerce-subscriptions` imports (docs/moving-over.md, "From WooCommerce Subscriptions") from a
 * simulated store of the extension's subscriptions billed by Mollie's plugin, on the sandbox provider
 * holding their customers and mandates. The clock stands at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('importing WooCommerce Subscriptions on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  const shop = useConnectedStore(t);
  let store: WooSimulator;
  let token: string;
  let accountId: string;

  beforeEach(() => {
    t.clock.set('2026-11-21T10:00:00Z');
    ({ store, token, accountId } = shop);
  });

  /** A customer and a valid mandate at the account's provider, as Mollie's plugin left them. */
  async function providerMandate(reference: string): Promise<{ customerId: string; mandateId: string }> {
    const account = (await t.ctx.db('accounts').where({ id: accountId }).first()) as Account;
    const provider = await t.ctx.providers.forAccount(account);
    const customer = await provider.createCustomer(
      { name: 'Anna Jansen', email: 'anna@example.test', locale: null, reference },
      `c-${reference}`,
    );
    const mandate = await provider.createMandate(
      {
        customerId: customer.id,
        consumerName: 'A. Jansen',
        consumerAccount: IBAN,
        consumerBic: null,
        signatureDate: '2025-01-02',
        mandateReference: reference,
      },
      `m-${reference}`,
    );
    return { customerId: customer.id, mandateId: mandate.id };
  }

  /**
   * The store as a shop on Mollie's plugin has it: a coffee subscription (15.00 a month, next payment
   * 2026-12-25, ending 2027-03-25) bought with a paid parent order that keeps the mandate (the
   * subscription keeps only the customer) and renewed once; and four it cannot take over.
   */
  async function mollieStore(): Promise<{ coffee: number; parent: number; others: Record<string, number> }> {
    const { customerId, mandateId } = await providerMandate('WCS-1');
    const product = store.addSubscriptionProduct({ name: 'Coffee of the month', price: '15.00', period: 'month' });
    const [parent] = store.addOrders(1, () => ({
      status: 'completed',
      total: '15.00',
      payment_method: 'mollie_wc_gateway_ideal',
      payment_method_title: 'iDEAL',
      line_items: [{ id: 1, product_id: product, quantity: 1, total: '15.00', subtotal: '15.00', subtotal_tax: '0.00' }],
      meta_data: [
        { key: '_mollie_customer_id', value: customerId },
        { key: '_mollie_mandate_id', value: mandateId },
      ],
    })) as [number];
    const line = {
      id: 1,
      name: 'Coffee of the month',
      product_id: product,
      variation_id: 0,
      quantity: 1,
      subtotal: '15.00',
      subtotal_tax: '0.00',
      total: '15.00',
      total_tax: '0.00',
    };
    const coffee = store.addSubscription(
      { parent_id: parent, end_date_gmt: '2027-03-25T10:00:00', line_items: [line] },
      { _mollie_customer_id: customerId },
    );
    store.addOrders(1, () => ({
      status: 'processing',
      total: '15.00',
      meta_data: [{ key: '_subscription_renewal', value: String(coffee) }],
    }));
    const others = {
      bacs: store.addSubscription({ payment_method: 'bacs' }),
      manual: store.addSubscription({ requires_manual_renewal: true }, { _mollie_customer_id: customerId, _mollie_mandate_id: mandateId }),
      onHold: store.addSubscription({ status: 'on-hold' }, { _mollie_customer_id: customerId, _mollie_mandate_id: mandateId }),
      noMandate: store.addSubscription({}, { _mollie_customer_id: customerId }),
    };
    return { coffee, parent, others };
  }

  const importing = (dryRun = false) => t.as(token).post('/api/v2/imports', { source: 'woocommerce-subscriptions', dry_run: dryRun });
  const ours = () => t.ctx.db('subscriptions').where({ account_id: accountId, source: 'woocommerce-subscriptions' });
  /** The renewal orders the service wrote in the store for the extension's subscription. */
  const serviceRenewals = (id: number) =>
    [...store.orders.values()].filter((order) => {
      const meta = (order.meta_data as Json[] | undefined) ?? [];
      return (
        meta.some((entry) => entry.key === '_subscription_renewal' && entry.value === String(id)) &&
        meta.some((entry) => entry.key === '_rps_order_id')
      );
    });

  /** Billing at the date, and the sandbox's payments of it paid, settled as their webhooks arrive. */
  async function bill(date: string): Promise<string> {
    const out = (await cli(t.ctx, 'billing', 'run', '--date', date, '--force')).out[0] ?? '';
    const publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref as string;
    for (const charge of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge', status: 'pending' })) {
      await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: charge.provider_payment_id });
    }
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
    return out;
  }

  it('When the import is dry run, then it lists what it would take over and what it skips and why, and changes nothing', async () => {
    const { coffee, others } = await mollieStore();
    const res = await importing(true);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      source: 'woocommerce-subscriptions',
      dry_run: true,
      counts: { total: 5, created: 1, skipped: 4, failed: 0 },
    });
    const rows = new Map((res.body.rows.data as Json[]).map((row) => [row.source_id, row]));
    expect(rows.get(String(coffee))).toMatchObject({
      outcome: 'would_create',
      reason: expect.stringMatching(/^15\.00 EUR every month, next 2026-12-25 \(charge 3 of 5\); mandate /),
    });
    const hint = 'The merchant can send this customer a subscription link instead.';
    expect(rows.get(String(others.bacs))).toMatchObject({
      outcome: 'would_skip',
      reason: `Paid through bacs, not a Mollie gateway. ${hint}`,
    });
    expect(rows.get(String(others.manual))).toMatchObject({ outcome: 'would_skip', reason: expect.stringContaining('manual renewals') });
    expect(rows.get(String(others.onHold))).toMatchObject({ outcome: 'would_skip', reason: expect.stringContaining('is on-hold') });
    expect(rows.get(String(others.noMandate))).toMatchObject({
      outcome: 'would_skip',
      reason: `The store keeps no Mollie mandate for it. ${hint}`,
    });
    expect(await ours()).toHaveLength(0);
    expect(store.subscriptions.get(coffee)).toMatchObject({ payment_method: 'mollie_wc_gateway_directdebit' });
    expect(store.requests.filter((one) => one.method !== 'GET' && one.path.includes('/subscriptions'))).toEqual([]);

    // The CLI prints the same plan.
    const name = (await t.ctx.db('accounts').where({ id: accountId }).first()).name as string;
    const printed = await cli(t.ctx, 'import', 'woocommerce-subscriptions', '--account', name, '--dry-run');
    expect(printed.code).toBe(0);
    expect(printed.out.at(-1)).toMatch(/^dry run imp_\w+: 5 rows: 1 would be created, 4 skipped, 0 failed$/);
    expect(printed.out).toContainEqual(expect.stringMatching(new RegExp(`^${coffee}: would create — 15\\.00 EUR every month`)));
  });

  it(
    'When the import runs, then ours holds the next charge, the store is switched to our gateway, billing charges once at the ' +
      "next date and the store gets one renewal order linked to the extension's subscription; a second run changes nothing",
    async () => {
      const { coffee, parent } = await mollieStore();
      const res = await importing();
      expect(res.body.counts).toEqual({ total: 5, created: 1, skipped: 4, failed: 0 });
      const row = (res.body.rows.data as Json[]).find((one) => one.source_id === String(coffee));
      expect(row).toMatchObject({ outcome: 'created', reason: expect.stringContaining('; switched to our gateway') });
      const [made] = await ours();
      expect(made).toMatchObject({ source_id: String(coffee), next_charge_number: 3, next_amount: 1500 });
      expect(Boolean(made.handover_pending)).toBe(false);
      expect(Number(made.shop_subscription_id)).toBe(coffee);
      const origin = await t.ctx.db('orders').where({ account_id: accountId, id: made.origin_order_id }).first();
      expect(Number(origin.shop_order_id)).toBe(parent);
      expect(await t.ctx.db('order_lines').where({ order_id: origin.id }).pluck('subscription_id')).toEqual([made.id]);
      expect(store.subscriptions.get(coffee)).toMatchObject({ payment_method: 'rps', requires_manual_renewal: false, status: 'active' });

      const again = await importing();
      expect(again.body.counts).toEqual({ total: 5, created: 0, skipped: 5, failed: 0 });
      expect((again.body.rows.data as Json[]).find((one) => one.source_id === String(coffee))).toMatchObject({ outcome: 'exists' });
      expect(await ours()).toHaveLength(1);

      expect(await bill('2026-12-24')).toContain('0 charged');
      expect(await bill('2026-12-25')).toContain('1 charged');
      expect(await bill('2026-12-25')).toContain('0 charged');
      const charges = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
      expect(charges.map((charge) => [Number(charge.amount), charge.status])).toEqual([[1500, 'paid']]);
      // The extension's own scheduled payment makes none: our gateway bills it.
      expect(store.runScheduledPayment(coffee)).toBeNull();
      const renewals = serviceRenewals(coffee);
      expect(renewals).toHaveLength(1);
      // Charged through our gateway, though the parent order names Mollie's.
      expect(renewals[0]).toMatchObject({ parent_id: parent, status: 'processing', payment_method: 'rps' });
      expect(renewals[0]).not.toHaveProperty('payment_method_title', 'iDEAL');
      expect(renewals[0]?.meta_data).toEqual(expect.arrayContaining([{ key: '_rps_next_payment_at', value: '2027-01-25' }]));
    },
  );

  it('When the store refuses our gateway, then ours stays pending and charges nothing, and the next run hands it over', async () => {
    const { coffee } = await mollieStore();
    store.switchableGateways.clear();
    const res = await importing();
    expect(res.body.counts).toMatchObject({ created: 0, failed: 1 });
    expect((res.body.rows.data as Json[]).find((one) => one.source_id === String(coffee))).toMatchObject({
      outcome: 'failed',
      field: 'handover',
      reason: expect.stringContaining('does not support admin changing the payment method'),
    });
    const [made] = await ours();
    expect(Boolean(made.handover_pending)).toBe(true);
    // As the real extension does: its refusal cleared the gateway (a manual renewal now).
    expect(store.subscriptions.get(coffee)).toMatchObject({ payment_method: '', requires_manual_renewal: true });
    expect(await bill('2026-12-25')).toContain('0 charged');
    expect(await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })).toHaveLength(0);

    store.switchableGateways.add('rps');
    const again = await importing();
    expect((again.body.rows.data as Json[]).find((one) => one.source_id === String(coffee))).toMatchObject({
      outcome: 'exists',
      reason: expect.stringContaining('switched to our gateway'),
    });
    expect(Boolean((await ours())[0].handover_pending)).toBe(false);
    expect(store.subscriptions.get(coffee)).toMatchObject({ payment_method: 'rps', requires_manual_renewal: false });
    expect(await bill('2026-12-25')).toContain('1 charged');
    expect(serviceRenewals(coffee)).toHaveLength(1);
  });

  it(
    'When the store billed a period itself before a refused hand-over was retried, then ours moves past it ' +
      'and charges from the next period on, once',
    async () => {
      const { coffee } = await mollieStore();
      store.switchableGateways.clear();
      await importing();
      const [made] = await ours();
      expect(made).toMatchObject({ next_payment_at: expect.stringContaining('2026-12-25'), next_charge_number: 3 });
      // Its renewal of 2026-12-25 made and paid in the store (by hand, or by Mollie's plugin): its next date moved on.
      const wcs = store.subscriptions.get(coffee) as Json;
      store.subscriptions.set(coffee, { ...wcs, next_payment_date_gmt: '2027-01-25T10:00:00' });
      store.addOrders(1, () => ({
        status: 'processing',
        total: '15.00',
        meta_data: [{ key: '_subscription_renewal', value: String(coffee) }],
      }));

      store.switchableGateways.add('rps');
      const again = await importing();
      expect((again.body.rows.data as Json[]).find((one) => one.source_id === String(coffee))).toMatchObject({
        outcome: 'exists',
        reason: expect.stringContaining('the store billed up to 2027-01-25; switched to our gateway'),
      });
      const subscription = await t.as(token).get(`/api/v2/subscriptions/${made.id}`);
      expect(subscription.body).toMatchObject({ next_payment_at: '2027-01-25', rules: [{ times: 5, times_done: 3 }] });
      expect(await bill('2026-12-25')).toContain('0 charged');
      expect(await bill('2027-01-25')).toContain('1 charged');
      expect(await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })).toMatchObject([
        { description: expect.stringContaining('2027-01-25') },
      ]);
    },
  );

  it("When the store's answer to the switch is lost, then ours stays pending and the next run finds it on our gateway", async () => {
    const { coffee } = await mollieStore();
    // Every attempt's answer lost (the client's own retries included).
    store.loseAnswers('PUT', /\/subscriptions\/\d+$/, 10);
    const res = await importing();
    expect((res.body.rows.data as Json[]).find((one) => one.source_id === String(coffee))).toMatchObject({
      outcome: 'failed',
      field: 'handover',
    });
    expect(Boolean((await ours())[0].handover_pending)).toBe(true);
    expect(store.subscriptions.get(coffee)).toMatchObject({ payment_method: 'rps' });
    expect(await bill('2026-12-25')).toContain('0 charged');
    const puts = () => store.requests.filter((one) => one.method === 'PUT' && one.path.includes('/subscriptions/')).length;
    const putsBefore = puts();

    const again = await importing();
    expect((again.body.rows.data as Json[]).find((one) => one.source_id === String(coffee))).toMatchObject({
      outcome: 'exists',
      reason: expect.stringContaining('on our gateway already'),
    });
    expect(puts()).toBe(putsBefore);
    expect(await bill('2026-12-25')).toContain('1 charged');
  });

  /** The store's meta of the subscription kept by the hand-over: our subscription's id, or undefined. */
  const serviceIdOn = (id: number) =>
    ((store.subscriptions.get(id)?.meta_data as Json[] | undefined) ?? []).find((entry) => entry.key === '_rps_service_subscription_id')
      ?.value;
  const rowOf = (body: Json, id: number) => ((body.rows as { data: Json[] }).data ?? []).find((one) => one.source_id === String(id));
  const charges = () => t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
  const subscriptionPuts = () => store.requests.filter((one) => one.method === 'PUT' && one.path.includes('/subscriptions/')).length;

  describe('on the morning of a renewal day (the store renews at 10:00 UTC)', () => {
    beforeEach(() => t.clock.set('2026-12-25T08:00:00Z'));

    it.each([
      ['between the listing and the switch', 'after', 'GET', /\/subscriptions$/],
      ['between the last read and the switch (its answer says so)', 'before', 'PUT', /\/subscriptions\/\d+$/],
    ] as const)(
      "When Mollie's plugin renews the subscription %s, then ours moves past that period: charged once, by the store, never by us",
      async (_when, moment, method, path) => {
        const { coffee } = await mollieStore();
        store.meanwhile(moment, method, path, () => store.renewByMollie(coffee));
        let res = await importing();
        if (moment === 'before') {
          // The answer shows a renewal but not whether it is paid: ours is held, and the next run reads its orders.
          expect(rowOf(res.body, coffee)).toMatchObject({ outcome: 'created', reason: expect.stringContaining('ours is held') });
          expect(Boolean((await ours())[0].handover_pending)).toBe(true);
          expect(await bill('2026-12-25')).toContain('0 charged');
          res = await importing();
        }
        expect(rowOf(res.body, coffee)).toMatchObject({
          reason: expect.stringContaining(
            `the store billed up to 2027-01-25; ${moment === 'before' ? 'on our gateway already' : 'switched to our gateway'}`,
          ),
        });
        const [made] = await ours();
        expect(made).toMatchObject({ next_payment_at: expect.stringContaining('2027-01-25') });
        // Two periods left before the store's end date (2027-01-25 and 2027-02-25), however the orders were counted.
        const { body } = await t.as(token).get(`/api/v2/subscriptions/${made.id}`);
        expect(body.rules[0].times - body.rules[0].times_done).toBe(2);
        expect(Boolean(made.handover_pending)).toBe(false);
        expect(store.subscriptions.get(coffee)).toMatchObject({ payment_method: 'rps', next_payment_date_gmt: '2027-01-25T10:00:00' });
        expect(await bill('2026-12-25')).toContain('0 charged');
        expect(await bill('2027-01-25')).toContain('1 charged');
        expect(await charges()).toMatchObject([{ amount: 1500, description: expect.stringContaining('2027-01-25') }]);
      },
    );

    it.each([
      ['between the listing and the switch', 'after', 'GET', /\/subscriptions$/],
      ['between the last read and the switch', 'before', 'PUT', /\/subscriptions\/\d+$/],
    ] as const)(
      "When Mollie's plugin renews %s and the store has not moved its next date yet, then its paid renewal order moves ours past",
      async (_when, moment, method, path) => {
        const { coffee } = await mollieStore();
        store.meanwhile(moment, method, path, () => store.renewByMollie(coffee, { movesNext: false }));
        await importing();
        // During the switch an order was made that the answer cannot say is paid: ours is held for the next run.
        const held = moment === 'before';
        expect(Boolean((await ours())[0].handover_pending)).toBe(held);
        if (held) expect((await importing()).body.rows.data).toContainEqual(expect.objectContaining({ source_id: String(coffee) }));
        const [made] = await ours();
        expect(Boolean(made.handover_pending)).toBe(false);
        expect(made).toMatchObject({ next_payment_at: expect.stringContaining('2027-01-25') });
        expect(await bill('2026-12-25')).toContain('0 charged');
        expect(await bill('2027-01-25')).toContain('1 charged');
        expect(await charges()).toHaveLength(1);
      },
    );

    it('When a renewal of the store failed (its last payment date moved, unpaid), then ours is not moved past that period', async () => {
      const { coffee } = await mollieStore();
      store.meanwhile('after', 'GET', /\/subscriptions$/, () => {
        const failed = store.renewByMollie(coffee, { paid: false });
        (store.orders.get(failed) as Json).status = 'failed';
      });
      await importing();
      const [made] = await ours();
      expect(Boolean(made.handover_pending)).toBe(false);
      expect(made).toMatchObject({ next_payment_at: expect.stringContaining('2026-12-25') });
      expect(await bill('2026-12-25')).toContain('1 charged');
    });

    it(
      "When Mollie's plugin starts a SEPA renewal during the switch (the store moves its next date at once, the order " +
        'on-hold) and the debit fails, then ours was held and is not moved past that unpaid period',
      async () => {
        const { coffee } = await mollieStore();
        let renewal = 0;
        store.meanwhile('before', 'PUT', /\/subscriptions\/\d+$/, () => {
          // Mollie's plugin puts a SEPA renewal's subscription back to active at once (MollieSubscriptionGatewayHandler::
          // update_subscription_status_for_direct_debit) and the extension's activation then moves its next payment on.
          renewal = store.renewByMollie(coffee, { paid: false });
          (store.subscriptions.get(coffee) as Json).next_payment_date_gmt = '2027-01-25T10:00:00';
        });
        const res = await importing();
        expect(rowOf(res.body, coffee)).toMatchObject({ reason: expect.stringContaining('hand-over waits') });
        expect(Boolean((await ours())[0].handover_pending)).toBe(true);
        expect((await ours())[0]).toMatchObject({ next_payment_at: expect.stringContaining('2026-12-25') });

        // The debit fails days later: the order failed, the extension puts the subscription on hold.
        (store.orders.get(renewal) as Json).status = 'failed';
        (store.subscriptions.get(coffee) as Json).status = 'on-hold';
        await importing();
        expect(Boolean((await ours())[0].handover_pending)).toBe(true);
        expect((await ours())[0]).toMatchObject({ next_payment_at: expect.stringContaining('2026-12-25') });
        expect(await bill('2026-12-25')).toContain('0 charged');
      },
    );

    it("When a SEPA renewal Mollie's plugin started during the switch is paid later, then ours moves past it once", async () => {
      const { coffee } = await mollieStore();
      let renewal = 0;
      store.meanwhile('before', 'PUT', /\/subscriptions\/\d+$/, () => {
        renewal = store.renewByMollie(coffee, { paid: false });
        (store.subscriptions.get(coffee) as Json).next_payment_date_gmt = '2027-01-25T10:00:00';
      });
      await importing();
      expect(Boolean((await ours())[0].handover_pending)).toBe(true);
      (store.orders.get(renewal) as Json).status = 'processing';
      const again = await importing();
      expect(rowOf(again.body, coffee)).toMatchObject({ reason: expect.stringContaining('on our gateway already') });
      const [made] = await ours();
      expect(Boolean(made.handover_pending)).toBe(false);
      expect(made).toMatchObject({ next_payment_at: expect.stringContaining('2027-01-25') });
      expect(await bill('2026-12-25')).toContain('0 charged');
      expect(await bill('2027-01-25')).toContain('1 charged');
      expect(await charges()).toHaveLength(1);
    });

    it(
      "When the switch's answer is lost after Mollie's plugin renewed, then the next run finds it on our gateway, " +
        'moves ours past the renewal and nothing is charged twice',
      async () => {
        const { coffee } = await mollieStore();
        store.meanwhile('before', 'PUT', /\/subscriptions\/\d+$/, () => store.renewByMollie(coffee));
        store.loseAnswers('PUT', /\/subscriptions\/\d+$/, 10);
        const res = await importing();
        expect(rowOf(res.body, coffee)).toMatchObject({ outcome: 'failed', field: 'handover' });
        const [made] = await ours();
        expect(Boolean(made.handover_pending)).toBe(true);
        // The outcome is unknown to us, but the store took it: our gateway, our id, its next date a period on.
        expect(store.subscriptions.get(coffee)).toMatchObject({ payment_method: 'rps', next_payment_date_gmt: '2027-01-25T10:00:00' });
        expect(serviceIdOn(coffee)).toBe(made.id);
        expect(await bill('2026-12-25')).toContain('0 charged');
        const putsBefore = subscriptionPuts();

        const again = await importing();
        expect(rowOf(again.body, coffee)).toMatchObject({
          outcome: 'exists',
          reason: expect.stringContaining('the store billed up to 2027-01-25; on our gateway already'),
        });
        expect(subscriptionPuts()).toBe(putsBefore);
        expect(await bill('2026-12-25')).toContain('0 charged');
        expect(await bill('2027-01-25')).toContain('1 charged');
        expect(await charges()).toHaveLength(1);
      },
    );

    it.each([
      ["active (SEPA Direct Debit clearing, as Mollie's plugin keeps it)", 'active', "the store's renewal order"],
      ['on hold', 'on-hold', "the store's subscription is on-hold: ours waits"],
    ] as const)(
      'When a renewal of the store is still being paid (the subscription %s), then ours waits, held, and takes over after it is paid',
      async (_what, subscriptionStatus, waits) => {
        const { coffee } = await mollieStore();
        let renewal = 0;
        store.meanwhile('after', 'GET', /\/subscriptions$/, () => {
          renewal = store.renewByMollie(coffee, { paid: false, subscriptionStatus });
        });
        const res = await importing();
        expect(rowOf(res.body, coffee)).toMatchObject({ outcome: 'created', reason: expect.stringContaining(`hand-over waits: ${waits}`) });
        expect(Boolean((await ours())[0].handover_pending)).toBe(true);
        expect(store.subscriptions.get(coffee)).toMatchObject({ payment_method: 'mollie_wc_gateway_directdebit' });
        expect(subscriptionPuts()).toBe(0);
        expect(await bill('2026-12-25')).toContain('0 charged');

        store.payRenewal(coffee, renewal);
        const again = await importing();
        expect(rowOf(again.body, coffee)).toMatchObject({
          outcome: 'exists',
          reason: expect.stringContaining('the store billed up to 2027-01-25; switched to our gateway'),
        });
        expect(await bill('2026-12-25')).toContain('0 charged');
        expect(await bill('2027-01-25')).toContain('1 charged');
        expect(await charges()).toHaveLength(1);
      },
    );
  });

  it(
    'When the customer cancels in My Account between the listing and the switch, then it is not switched, ' +
      'ours is held and charges nothing, and the report says so',
    async () => {
      const { coffee } = await mollieStore();
      store.meanwhile('after', 'GET', /\/subscriptions$/, () => store.cancelInMyAccount(coffee));
      const res = await importing();
      expect(rowOf(res.body, coffee)).toMatchObject({
        outcome: 'created',
        reason: expect.stringContaining("the store's subscription is cancelled since it was listed: not switched to our gateway"),
      });
      expect(store.subscriptions.get(coffee)).toMatchObject({ payment_method: 'mollie_wc_gateway_directdebit', status: 'cancelled' });
      expect(subscriptionPuts()).toBe(0);
      expect(Boolean((await ours())[0].handover_pending)).toBe(true);
      expect(await bill('2026-12-25')).toContain('0 charged');

      // Every later run says it again; nothing is switched or charged.
      const again = await importing();
      expect(rowOf(again.body, coffee)).toMatchObject({ outcome: 'exists', reason: expect.stringContaining('not switched') });
      expect(subscriptionPuts()).toBe(0);
      expect(await bill('2027-01-25')).toContain('0 charged');
      expect(await charges()).toHaveLength(0);
    },
  );

  it(
    "When the hand-over switches the store's subscription, then ours' id is kept on it in the same request " +
      'and the plugin finds ours by the store id through the API',
    async () => {
      const { coffee } = await mollieStore();
      await importing();
      const [made] = await ours();
      expect(serviceIdOn(coffee)).toBe(made.id);
      expect(subscriptionPuts()).toBe(1);
      const found = await t
        .as(token)
        .get('/api/v2/subscriptions')
        .query({ shop_subscription_id: String(coffee) });
      expect(found.status).toBe(200);
      expect(found.body.data).toMatchObject([{ id: made.id, shop_subscription_id: coffee }]);
      const none = await t.as(token).get('/api/v2/subscriptions').query({ shop_subscription_id: '999999' });
      expect(none.body.data).toEqual([]);
      const bad = await t.as(token).get('/api/v2/subscriptions').query({ shop_subscription_id: 'abc' });
      expect(bad.status).toBe(422);
    },
  );

  it("When the store does not keep ours' id on its subscription, then ours stays held and charges nothing", async () => {
    const { coffee } = await mollieStore();
    store.unsavedMeta.add('_rps_service_subscription_id');
    const res = await importing();
    expect(rowOf(res.body, coffee)).toMatchObject({
      outcome: 'failed',
      field: 'handover',
      reason: expect.stringContaining("did not keep our subscription's id"),
    });
    expect(Boolean((await ours())[0].handover_pending)).toBe(true);
    expect(await bill('2026-12-25')).toContain('0 charged');

    store.unsavedMeta.clear();
    const again = await importing();
    expect(rowOf(again.body, coffee)).toMatchObject({ outcome: 'exists', reason: expect.stringContaining('switched to our gateway') });
    expect(serviceIdOn(coffee)).toBe((await ours())[0].id);
    expect(await bill('2026-12-25')).toContain('1 charged');
  });

  it('When the store renews a month-end subscription during the hand-over, then ours moves past that one period only', async () => {
    t.clock.set('2027-02-28T08:00:00Z');
    const { coffee } = await mollieStore();
    Object.assign(store.subscriptions.get(coffee) as Json, { next_payment_date_gmt: '2027-02-28T10:00:00', end_date_gmt: '' });
    store.meanwhile('after', 'GET', /\/subscriptions$/, () => {
      store.renewByMollie(coffee);
      // The extension's month from the last day of a month is the last day of the next (wcs_add_months).
      (store.subscriptions.get(coffee) as Json).next_payment_date_gmt = '2027-03-31T10:00:00';
    });
    await importing();
    const [made] = await ours();
    expect(Boolean(made.handover_pending)).toBe(false);
    // The store billed 2027-02-28 only; ours (day 28) bills 2027-03-28 next, not 2027-04-28.
    expect(made).toMatchObject({ next_payment_at: expect.stringContaining('2027-03-28') });
  });
  it('When no store is connected, then the import answers 409 and imports nothing', async () => {
    await t.as(token).delete('/api/v2/shop');
    const res = await importing(true);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'shop_not_connected' });
  });
});
