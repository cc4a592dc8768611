import { refreshMandates } from '../../src/jobs/refreshMandates';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

/**
 * A customer's mandates through the API (extensions): list, read one, revoke — refused while a
 * subscription uses the mandate — and `mandate.created` / `mandate.revoked` on the account's events
 * endpoint. Another account's customer or mandate is not found. Sandbox provider.
 */
describe.each(TEST_DATABASES)('customer mandates on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    const created = await t.newAccount();
    token = created.token;
    accountId = created.accountId;
    await t.ctx.db('accounts').where({ id: accountId }).update({ events_url: 'https://merchant.example/events' });
  });
  afterEach(() => t.ctx.background.idle());

  const newMandate = (customerId: string) =>
    t.as(token).post(`/api/v2/customers/${customerId}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' });

  const eventsOf = async (resourceId: string) =>
    (
      await t.ctx.db('outbound_events').where({ account_id: accountId, resource_id: resourceId }).orderBy('created_at').pluck('payload')
    ).map((payload: string) => JSON.parse(payload) as Record<string, unknown>);

  it('When a mandate is created, then it is listed and read, and mandate.created names it without personal data', async () => {
    const subscribed = await subscribe(t, token, { email: 'list@example.nl' });
    const second = await newMandate(subscribed.customerId);
    expect(second.status).toBe(201);

    const list = await t.as(token).get(`/api/v2/customers/${subscribed.customerId}/mandates`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((mandate: { id: string }) => mandate.id)).toEqual([subscribed.mandateId, second.body.id]);
    expect(list.body.data[0]).toMatchObject({ method: 'directdebit', status: 'valid' });

    const one = await t.as(token).get(`/api/v2/customers/${subscribed.customerId}/mandates/${second.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(second.body);

    const events = await eventsOf(second.body.id);
    expect(events).toEqual([
      { id: second.body.id, event: 'mandate.created', customer_id: subscribed.customerId, method: 'directdebit', status: 'valid' },
    ]);
    expect(JSON.stringify(events)).not.toContain('NL91ABNA0417164300');
  });

  it(
    'When a mandate in use is deleted, then 409 names the subscriptions and nothing is revoked; unused, it is revoked at the ' +
      'provider and here, once, with mandate.revoked',
    async () => {
      const subscribed = await subscribe(t, token, { email: 'revoke@example.nl' });
      const path = `/api/v2/customers/${subscribed.customerId}/mandates/${subscribed.mandateId}`;
      const refused = await t.as(token).delete(path);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'mandate_in_use' });
      expect(refused.body.error).toContain(`${subscribed.subscriptionId} (active)`);
      expect(await t.ctx.db('sandbox_mandates').where({ id: subscribed.mandateId }).first()).toMatchObject({ status: 'valid' });

      // A paused subscription still uses it; a cancelled one no more.
      await t.ctx.db('subscriptions').where({ id: subscribed.subscriptionId }).update({ status: 'paused' });
      expect((await t.as(token).delete(path)).status).toBe(409);
      await t.ctx.db('subscriptions').where({ id: subscribed.subscriptionId }).update({ status: 'cancelled' });

      const revoked = await t.as(token).delete(path);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ id: subscribed.mandateId, status: 'invalid' });
      expect(await t.ctx.db('sandbox_mandates').where({ id: subscribed.mandateId }).first()).toMatchObject({ status: 'invalid' });
      const row = await t.ctx.db('mandates').where({ id: subscribed.mandateId }).first();
      expect(row.revoked_at).not.toBeNull();

      const again = await t.as(token).delete(path);
      expect(again.status).toBe(200);
      expect((await eventsOf(subscribed.mandateId)).map((event) => event.event)).toEqual(['mandate.created', 'mandate.revoked']);
    },
  );

  it('When the refresh finds a mandate revoked at the provider, then it is marked invalid with one mandate.revoked', async () => {
    const subscribed = await subscribe(t, token, { email: 'refresh@example.nl' });
    await t.ctx.db('sandbox_mandates').where({ id: subscribed.mandateId }).update({ status: 'invalid' });
    await refreshMandates(t.ctx, new AbortController().signal);
    await refreshMandates(t.ctx, new AbortController().signal);
    expect(await t.ctx.db('mandates').where({ id: subscribed.mandateId }).first()).toMatchObject({ status: 'invalid' });
    expect((await eventsOf(subscribed.mandateId)).map((event) => event.event)).toEqual(['mandate.created', 'mandate.revoked']);
  });

  it('When another account’s customer or mandate is asked for, then every mandate endpoint answers 404', async () => {
    const mine = await subscribe(t, token, { email: 'mine@example.nl' });
    const other = await t.newAccount();
    const theirs = await subscribe(t, other.token, { email: 'theirs@example.nl' });
    const paths = [
      `/api/v2/customers/${theirs.customerId}/mandates`,
      `/api/v2/customers/${theirs.customerId}/mandates/${theirs.mandateId}`,
      `/api/v2/customers/${mine.customerId}/mandates/${theirs.mandateId}`,
      `/api/v2/customers/${mine.customerId}/mandates/mdt_unknown`,
    ];
    for (const path of paths) {
      expect((await t.as(token).get(path)).status).toBe(404);
    }
    for (const path of paths.slice(1)) {
      expect((await t.as(token).delete(path)).status).toBe(404);
    }
    expect(await t.ctx.db('sandbox_mandates').where({ id: theirs.mandateId }).first()).toMatchObject({ status: 'valid' });
  });
});
