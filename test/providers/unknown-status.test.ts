import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { TEST_DATABASES } from '../support/databases';
import { seedCustomer } from '../support/seed';
import { useTestApp } from '../support/testApp';
import { guardMollieNetwork, mollie, mollieFixture, mollieListsMethods, TEST_MOLLIE_KEY } from '../support/mollieNock';

guardMollieNetwork();

/**
 * A status Mollie adds after this was written is not guessed at (see paymentStatusFrom): the
 * payment keeps its last known status and the call stays due for a retry, saying why, until the
 * mapping learns the new status.
 */
describe.each(TEST_DATABASES)('a payment status the Mollie adapter does not know, on %s', (kind) => {
  const t = useTestApp(kind);

  it(
    'When a webhook finds the payment in an unknown status, then the payment stays open and the call waits for a retry with the ' +
      'reason',
    async () => {
      const name = `Unknown Status ${randomBase62(8)}`;
      const { accountId, token } = await t.newAccount(name);
      await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
      const publicRef = String((await t.ctx.db('accounts').where({ id: accountId }).first('public_ref')).public_ref);
      await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_8wmqcHMN4U' });
      const trId = `tr_${randomBase62(10)}`;
      mollieListsMethods();
      mollie()
        .post('/v2/payments')
        .reply(201, mollieFixture('payment-open', { id: trId }));
      const created = await t.as(token).post('/api/v2/payments', {
        amount: 12.5,
        currency: 'EUR',
        provider_customer_id: 'cst_8wmqcHMN4U',
        description: 'Order 3001',
        redirect_url: 'https://webshop.example.org/order/3001/',
      });
      expect(created.status).toBe(201);

      mollie()
        .get(`/v2/payments/${trId}`)
        .reply(200, mollieFixture('payment-open', { id: trId, status: 'settled' }));
      const call = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send(`id=${trId}`);
      expect(call.status).toBe(200);
      await t.ctx.background.idle();

      expect((await t.as(token).get(`/api/v2/payments/${created.body.id}`)).body.status).toBe('open');
      const [kept] = await t.ctx
        .db('provider_webhook_calls')
        .where({ account_id: accountId, resource_id: trId })
        .select('processed_at', 'attempts', 'last_error', 'next_attempt_at');
      expect(kept).toMatchObject({
        processed_at: null,
        attempts: 1,
        last_error: expect.stringContaining('unknown payment status "settled"'),
        next_attempt_at: expect.anything(),
      });
    },
  );
});
