import request from 'supertest';
import type { Account } from '../../src/modules/accounts/account';
import { refreshMandates } from '../../src/jobs/refreshMandates';
import { startMandateTakeover } from '../../src/modules/takeovers/service';
import { startPayment } from '../../src/modules/payments/pipeline';
import type { PaymentRow } from '../../src/modules/payments/repository';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

/**
 * A new mandate takes over: a takeover link's first payment, once paid, moves the chosen (or all)
 * subscriptions of its customer in use to the mandate it made, and revokes the old mandate at the
 * provider once nobody uses it. Sandbox provider; the clock stands at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('a new mandate takes over on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let account: Account;

  beforeAll(async () => {
    const created = await t.newAccount();
    token = created.token;
    account = await t.ctx.db('accounts').where({ id: created.accountId }).first();
    await t.ctx.db('accounts').where({ id: account.id }).update({ events_url: 'https://merchant.example/events' });
  });
  afterEach(() => t.ctx.background.idle());

  /** What the /pay page does when the customer presses pay: the link's `first` payment, paid at the sandbox checkout. */
  async function payLink(linkId: string, customerId: string): Promise<PaymentRow> {
    const customer = await t.ctx.db('customers').where({ id: customerId }).first();
    const link = await t.ctx.db('payment_links').where({ id: linkId }).first();
    const payment = await startPayment(t.ctx, account, {
      purpose: 'link',
      purposeId: linkId,
      inProgressKey: `link-${linkId}`,
      customer: { id: customerId, providerCustomerId: customer.provider_customer_id },
      sequenceType: 'first',
      mandateId: null,
      amount: Number(link.first_amount),
      currency: 'EUR',
      description: link.description,
      method: null,
      redirectUrl: 'https://shop.example/return',
      webhookUrl: null,
      profileId: null,
    });
    const res = await request(t.app).post(`/sandbox/checkout/${payment.provider_payment_id}`).type('form').send({ status: 'paid' });
    expect(res.status).toBe(303);
    await t.ctx.background.idle();
    return (await t.ctx.db('payments').where({ id: payment.id }).first()) as PaymentRow;
  }

  const eventsOf = (resourceId: string) =>
    t.ctx.db('outbound_events').where({ account_id: account.id, resource_id: resourceId }).orderBy('created_at').pluck('payload');

  it(
    'When a takeover link for every subscription is paid, then the subscriptions move to the new mandate once, with ' +
      'subscription.updated, and the old mandate is revoked at the provider and here',
    async () => {
      const first = await subscribe(t, token, { email: 'takeover-all@example.nl' });
      const second = await t.as(token).post('/api/v2/subscriptions', {
        name: 'Tea box',
        customer_id: first.customerId,
        provider_profile_id: 'pfl_test123456',
        provider_mandate_id: first.mandateId,
        start_date: '2026-12-01',
        rules: [{ amount: 7.5, interval: 'month', interval_amount: 1 }],
      });
      expect(second.status).toBe(201);

      const started = await startMandateTakeover(t.ctx, account, {
        customerId: first.customerId,
        subscriptionIds: null,
        amountCents: null,
        description: 'Change payment method',
        redirectUrl: 'https://shop.example/account',
        locale: 'nl_NL',
      });
      expect(started.url).toBe(`${t.ctx.config.publicUrl}/pay/${started.linkId}`);
      const link = await t.ctx.db('payment_links').where({ id: started.linkId }).first();
      expect(link).toMatchObject({ type: 'mandate', first_amount: 1, customer_id: first.customerId, status: 'open' });

      const paid = await payLink(started.linkId, first.customerId);
      expect(paid.status).toBe('paid');
      const newMandate = paid.provider_mandate_id as string;
      expect(newMandate).toBeTruthy();
      expect(newMandate).not.toBe(first.mandateId);

      const subscriptions = await t.ctx.db('subscriptions').where({ customer_id: first.customerId }).orderBy('id');
      expect(subscriptions.map((row: { provider_mandate_id: string }) => row.provider_mandate_id)).toEqual([newMandate, newMandate]);
      for (const row of subscriptions as Array<{ id: string }>) {
        const updated = (await eventsOf(row.id)).map((payload: string) => JSON.parse(payload));
        expect(updated.filter((event: { event: string }) => event.event === 'subscription.updated')).toEqual([
          { id: row.id, event: 'subscription.updated', changes: ['provider_mandate_id'] },
        ]);
      }

      const old = await t.ctx.db('mandates').where({ id: first.mandateId }).first();
      expect(old).toMatchObject({ status: 'invalid' });
      expect(old.revoked_at).not.toBeNull();
      expect(await t.ctx.db('sandbox_mandates').where({ id: first.mandateId }).first()).toMatchObject({ status: 'invalid' });
      expect(await t.ctx.db('mandate_revocations').where({ mandate_id: first.mandateId }).first()).toMatchObject({ last_error: null });
      expect((await eventsOf(first.mandateId)).map((payload: string) => JSON.parse(payload).event)).toEqual([
        'mandate.created',
        'mandate.revoked',
      ]);
      expect((await eventsOf(newMandate)).map((payload: string) => JSON.parse(payload).event)).toEqual(['mandate.created']);
      expect(await t.ctx.db('mandates').where({ id: newMandate }).first()).toMatchObject({ status: 'valid', revoked_at: null });

      // The same payment reported again changes nothing more.
      await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: paid.provider_payment_id });
      await t.ctx.background.idle();
      const events = await t.ctx.db('outbound_events').where({ account_id: account.id, event: 'subscription.updated' });
      expect(
        events.filter((event: { resource_id: string }) => subscriptions.some((row: { id: string }) => row.id === event.resource_id)),
      ).toHaveLength(2);
    },
  );

  it(
    'When the process dies between the commit and the revocation, then the subscription has moved once and the ' +
      'refresh-mandates job revokes the old mandate later; revoking twice is harmless',
    async () => {
      const first = await subscribe(t, token, { email: 'takeover-crash@example.nl' });
      const started = await startMandateTakeover(t.ctx, account, {
        customerId: first.customerId,
        subscriptionIds: null,
        amountCents: null,
        description: 'Change payment method',
        redirectUrl: null,
        locale: null,
      });
      // The revocation after the commit never runs: as if the process ended right after the commit.
      const run = t.ctx.background.run.bind(t.ctx.background);
      const dropped = jest.spyOn(t.ctx.background, 'run').mockImplementation((name, task) => {
        if (name !== 'revoke mandates no longer used') run(name, task);
      });
      let paid: PaymentRow;
      try {
        paid = await payLink(started.linkId, first.customerId);
      } finally {
        dropped.mockRestore();
      }
      expect(await t.ctx.db('subscriptions').where({ id: first.subscriptionId }).first()).toMatchObject({
        provider_mandate_id: paid.provider_mandate_id,
      });
      expect(await t.ctx.db('mandates').where({ id: first.mandateId }).first()).toMatchObject({ status: 'valid', revoked_at: null });
      expect(await t.ctx.db('mandate_revocations').where({ mandate_id: first.mandateId }).first()).toMatchObject({ revoked_at: null });

      await refreshMandates(t.ctx, new AbortController().signal);
      expect(await t.ctx.db('mandates').where({ id: first.mandateId }).first()).toMatchObject({ status: 'invalid' });
      expect(await t.ctx.db('sandbox_mandates').where({ id: first.mandateId }).first()).toMatchObject({ status: 'invalid' });
      // Again (a second instance, or the row re-read): nothing more happens, one mandate.revoked only.
      await t.ctx.db('mandate_revocations').where({ mandate_id: first.mandateId }).update({ revoked_at: null });
      await refreshMandates(t.ctx, new AbortController().signal);
      const revokedEvents = await t.ctx.db('outbound_events').where({ resource_id: first.mandateId, event: 'mandate.revoked' });
      expect(revokedEvents).toHaveLength(1);
      const updated = await t.ctx.db('outbound_events').where({ resource_id: first.subscriptionId, event: 'subscription.updated' });
      expect(updated).toHaveLength(1);
    },
  );

  it('When a takeover names one subscription, then only that one moves and the old mandate, still in use, is not revoked', async () => {
    const first = await subscribe(t, token, { email: 'takeover-one@example.nl' });
    const other = await t.as(token).post('/api/v2/subscriptions', {
      name: 'Tea box',
      customer_id: first.customerId,
      provider_profile_id: 'pfl_test123456',
      provider_mandate_id: first.mandateId,
      start_date: '2026-12-01',
      rules: [{ amount: 7.5, interval: 'month', interval_amount: 1 }],
    });
    const started = await startMandateTakeover(t.ctx, account, {
      customerId: first.customerId,
      subscriptionIds: [first.subscriptionId],
      amountCents: 1250,
      description: 'Pay and change',
      redirectUrl: null,
      locale: null,
    });
    expect(await t.ctx.db('payment_links').where({ id: started.linkId }).first()).toMatchObject({ first_amount: 1250 });
    const paid = await payLink(started.linkId, first.customerId);
    expect(paid.amount).toBe(1250);
    expect(await t.ctx.db('subscriptions').where({ id: first.subscriptionId }).first()).toMatchObject({
      provider_mandate_id: paid.provider_mandate_id,
    });
    expect(await t.ctx.db('subscriptions').where({ id: other.body.id }).first()).toMatchObject({ provider_mandate_id: first.mandateId });
    expect(await t.ctx.db('mandates').where({ id: first.mandateId }).first()).toMatchObject({ status: 'valid', revoked_at: null });
    expect(await t.ctx.db('mandate_revocations').where({ mandate_id: first.mandateId })).toEqual([]);
  });

  it('When a draft subscription waits for a mandate, then a paid takeover activates it on the new valid mandate', async () => {
    const first = await subscribe(t, token, { email: 'takeover-draft@example.nl' });
    await t.ctx.db('subscriptions').where({ id: first.subscriptionId }).update({ status: 'draft' });
    await t.ctx.db('mandates').where({ id: first.mandateId }).update({ status: 'pending' });
    const started = await startMandateTakeover(t.ctx, account, {
      customerId: first.customerId,
      subscriptionIds: null,
      amountCents: null,
      description: 'New mandate',
      redirectUrl: null,
      locale: null,
    });
    const paid = await payLink(started.linkId, first.customerId);
    expect(await t.ctx.db('subscriptions').where({ id: first.subscriptionId }).first()).toMatchObject({
      status: 'active',
      provider_mandate_id: paid.provider_mandate_id,
    });
  });

  it('When another account’s customer or subscription is named, then the takeover is refused as not found', async () => {
    const mine = await subscribe(t, token, { email: 'takeover-tenancy@example.nl' });
    const other = await t.newAccount();
    const theirs = await subscribe(t, other.token, { email: 'takeover-other@example.nl' });
    const base = { subscriptionIds: null, amountCents: null, description: 'x', redirectUrl: null, locale: null };
    await expect(startMandateTakeover(t.ctx, account, { ...base, customerId: theirs.customerId })).rejects.toMatchObject({ status: 404 });
    await expect(
      startMandateTakeover(t.ctx, account, { ...base, customerId: mine.customerId, subscriptionIds: [theirs.subscriptionId] }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
