import type { Account } from '../../src/modules/accounts/account';
import { startMandateTakeover } from '../../src/modules/takeovers/service';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { refuseUpdatesOf } from '../support/rowWriteFault';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { customerWithMandate } from '../support/mollieSubscriptions';
import { useTestApp } from '../support/testApp';

/**
 * A takeover never revokes a mandate another biller still charges, and never moves subscriptions onto
 * a mandate the bank has not confirmed: against the Mollie fake (its Subscriptions API is the other
 * biller), through the import, the pay page, Mollie's webhook and the refresh-mandates job.
 */
describe.each(TEST_DATABASES)('mandates other billers use, and takeovers onto pending mandates, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;
  let account: Account;

  beforeEach(async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    mollie = await accountAtMollieFake(t, 'Other billers');
    await t.ctx.db('accounts').where({ id: mollie.accountId }).update({ events_url: 'https://merchant.example/events' });
    account = (await t.ctx.db('accounts').where({ id: mollie.accountId }).first()) as Account;
  });
  afterEach(async () => {
    await t.ctx.background.idle();
    mollie.stop();
  });

  const eventsOf = async (resourceId: string) =>
    (await t.ctx.db('outbound_events').where({ account_id: mollie.accountId, resource_id: resourceId }).pluck('payload')).map(
      (payload: string) => JSON.parse(payload) as Record<string, unknown>,
    );
  /** The names of the events about it (written within one second of the test's clock: in any order). */
  const eventNames = async (resourceId: string) => (await eventsOf(resourceId)).map((event) => String(event.event)).sort();
  const mandateRow = (id: string) => t.ctx.db('mandates').where({ account_id: mollie.accountId, id }).first();

  /** A takeover of every subscription of the customer, its link paid at Mollie; answers the new mandate's id. */
  async function takeOver(customerId: string, mandate: 'valid' | 'pending' = 'valid'): Promise<string> {
    const { linkId } = await startMandateTakeover(t.ctx, account, {
      customerId,
      subscriptionIds: null,
      amountCents: null,
      description: 'Change payment method',
      redirectUrl: null,
      locale: null,
    });
    const mandateId = await mollie.payLink(linkId, mandate);
    await t.ctx.background.idle();
    return mandateId;
  }

  /** Mollie's subscription on the customer's mandate, taken over by an import: ours charges on that mandate. */
  async function importedOnMandate(): Promise<{ customerId: string; mandateId: string; providerCustomerId: string }> {
    const anna = await customerWithMandate(mollie.fake);
    const sourceId = mollie.fake.seedSubscription(anna.customerId, {
      amount: 995,
      interval: '1 month',
      startDate: '2026-09-05',
      nextPaymentDate: '2026-12-05',
      description: 'Magazine',
      mandateId: anna.mandateId,
    });
    const run = await t.as(mollie.token).post('/api/v2/imports', { source: 'mollie-subscriptions' });
    expect(run.body.counts).toMatchObject({ created: 1, failed: 0 });
    expect(mollie.fake.subscriptions.get(sourceId)?.status).toBe('canceled');
    const ours = await t.ctx.db('subscriptions').where({ account_id: mollie.accountId, source_id: sourceId }).first();
    expect(ours.provider_mandate_id).toBe(anna.mandateId);
    expect(await mandateRow(anna.mandateId)).toMatchObject({ origin: 'import' });
    return { customerId: ours.customer_id as string, mandateId: anna.mandateId, providerCustomerId: anna.customerId };
  }

  it.each([
    ['names it', true],
    ['names no mandate (Mollie charges any valid one)', false],
  ])(
    'When an imported mandate is left unused by a takeover but a Mollie subscription that %s still bills the customer, then ' +
      'it is not revoked and the merchant gets mandate.revocation_skipped',
    async (_case, named) => {
      const imported = await importedOnMandate();
      // Another integration bills the customer through Mollie's Subscriptions API, after the import.
      const other = mollie.fake.seedSubscription(imported.providerCustomerId, {
        amount: 500,
        interval: '1 month',
        startDate: '2026-12-10',
        description: 'Club membership',
        ...(named ? { mandateId: imported.mandateId } : {}),
      });

      const newMandate = await takeOver(imported.customerId);
      const ours = await t.ctx.db('subscriptions').where({ account_id: mollie.accountId, customer_id: imported.customerId });
      expect(ours.map((row) => row.provider_mandate_id)).toEqual([newMandate]);
      expect(mollie.fake.revokedMandates).toEqual([]);
      expect(mollie.fake.mandates.get(imported.mandateId)?.status).toBe('valid');
      expect(await mandateRow(imported.mandateId)).toMatchObject({ status: 'valid', revoked_at: null });
      expect(await eventNames(imported.mandateId)).toEqual(['mandate.created', 'mandate.revocation_skipped']);
      expect((await eventsOf(imported.mandateId)).find((event) => event.event === 'mandate.revocation_skipped')).toEqual({
        id: imported.mandateId,
        event: 'mandate.revocation_skipped',
        customer_id: imported.customerId,
        method: 'directdebit',
        status: 'valid',
        reason: 'used_at_provider',
        provider_subscription_ids: [other],
      });

      // Later runs of the job do not revoke it either, nor tell it again.
      expect((await cli(t.ctx, 'jobs', 'run', 'refresh-mandates')).code).toBe(0);
      await t.ctx.background.idle();
      expect(mollie.fake.revokedMandates).toEqual([]);
      expect(await eventNames(imported.mandateId)).toEqual(['mandate.created', 'mandate.revocation_skipped']);
    },
  );

  it('When an imported mandate is left unused and no Mollie subscription bills on it any more, then it is revoked', async () => {
    const imported = await importedOnMandate();
    // Ended ones do not count: the customer's old subscription there, canceled.
    mollie.fake.seedSubscription(imported.providerCustomerId, {
      amount: 500,
      interval: '1 month',
      startDate: '2026-01-10',
      description: 'Old club membership',
      status: 'canceled',
    });

    await takeOver(imported.customerId);
    expect(mollie.fake.revokedMandates).toEqual([imported.mandateId]);
    expect(await mandateRow(imported.mandateId)).toMatchObject({ status: 'invalid', revoked_at: expect.anything() });
    expect(await eventNames(imported.mandateId)).toEqual(['mandate.created', 'mandate.revoked']);
  });

  it(
    'When a takeover is paid but its new mandate is still pending, then nothing moves and the old mandate is kept; once ' +
      'the refresh-mandates job finds it valid, the subscription moves once and the old mandate is revoked',
    async () => {
      const { customerId, mandateId: old, subscriptionId } = await subscribe(t, mollie.token);
      const newMandate = await takeOver(customerId, 'pending');
      expect(await mandateRow(newMandate)).toMatchObject({ status: 'pending', origin: 'first_payment' });
      expect((await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).provider_mandate_id).toBe(old);
      expect(mollie.fake.revokedMandates).toEqual([]);
      expect(await eventNames(subscriptionId)).not.toContain('subscription.updated');

      // Still pending at the next refresh: still waiting.
      expect((await cli(t.ctx, 'jobs', 'run', 'refresh-mandates')).code).toBe(0);
      await t.ctx.background.idle();
      expect((await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).provider_mandate_id).toBe(old);
      expect(mollie.fake.revokedMandates).toEqual([]);

      mollie.fake.setMandateStatus(newMandate, 'valid');
      t.clock.advance(60 * 60 * 1000);
      expect((await cli(t.ctx, 'jobs', 'run', 'refresh-mandates')).code).toBe(0);
      await t.ctx.background.idle();
      expect((await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).provider_mandate_id).toBe(newMandate);
      expect(mollie.fake.revokedMandates).toEqual([old]);
      expect(await mandateRow(old)).toMatchObject({ status: 'invalid' });

      t.clock.advance(60 * 60 * 1000);
      expect((await cli(t.ctx, 'jobs', 'run', 'refresh-mandates')).code).toBe(0);
      await t.ctx.background.idle();
      const updated = (await eventsOf(subscriptionId)).filter((event) => event.event === 'subscription.updated');
      expect(updated).toEqual([{ id: subscriptionId, event: 'subscription.updated', changes: ['provider_mandate_id'] }]);
      expect(mollie.fake.revokedMandates).toEqual([old]);
    },
  );

  it(
    'When the move of a waiting takeover fails after its mandate was saved valid, then a later refresh-mandates run still ' +
      'moves it, once, and revokes the old mandate',
    async () => {
      const { customerId, mandateId: old, subscriptionId } = await subscribe(t, mollie.token);
      const newMandate = await takeOver(customerId, 'pending');
      mollie.fake.setMandateStatus(newMandate, 'valid');

      // The move's write is refused (as a lock wait timeout would): the mandate is saved valid, nothing moved.
      const undo = await refuseUpdatesOf(t.ctx.db, kind, 'subscriptions', subscriptionId);
      t.clock.advance(60 * 60 * 1000);
      const failed = await cli(t.ctx, 'jobs', 'run', 'refresh-mandates');
      expect(failed.out).toEqual([expect.stringMatching(/ 1 failed/)]);
      await undo();
      expect(await mandateRow(newMandate)).toMatchObject({ status: 'valid' });
      expect((await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).provider_mandate_id).toBe(old);
      expect(mollie.fake.revokedMandates).toEqual([]);

      for (let run = 0; run < 2; run += 1) {
        t.clock.advance(60 * 60 * 1000);
        expect((await cli(t.ctx, 'jobs', 'run', 'refresh-mandates')).code).toBe(0);
        await t.ctx.background.idle();
      }
      expect((await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).provider_mandate_id).toBe(newMandate);
      expect(mollie.fake.revokedMandates).toEqual([old]);
      const updated = (await eventsOf(subscriptionId)).filter((event) => event.event === 'subscription.updated');
      expect(updated).toEqual([{ id: subscriptionId, event: 'subscription.updated', changes: ['provider_mandate_id'] }]);
    },
  );
});
