import { randomBytes } from 'node:crypto';
import nock from 'nock';
import { clearProviderSettings, setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { LiveKeyRefusedError, sealMollieKey, UnreadableMollieKeyError } from '../../src/providers/mollie/settings';
import type { ProviderPaymentInput } from '../../src/providers/types';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { guardMollieNetwork, headerOf, mollie, mollieFixture, TEST_MOLLIE_KEY } from '../support/mollieNock';

guardMollieNetwork();

const ENV_KEY = 'test_EnvironmentKey00000000000000000';
const OTHER_KEY = 'test_SecondKeyOfTheAccount000000000';
const LIVE_KEY = 'live_LiveKeyOfTheAccount00000000000';

type NockRequest = { req: { headers: Record<string, string | string[] | undefined> } };

const payment: ProviderPaymentInput = {
  amount: 1250,
  currency: 'EUR',
  description: 'Order #1',
  sequenceType: 'oneoff',
  customerId: 'cst_8wmqcHMN4U',
  mandateId: null,
  method: null,
  redirectUrl: 'https://shop.example.nl/thanks',
  webhookUrl: 'http://localhost:3000/webhooks/mollie?account=ref',
  reference: 'pay_1',
};

/** Answers one GET of a payment and records the bearer it came with. */
function expectGet(bearers: Array<string | undefined>, host = 'https://api.mollie.com', path = '/v2/payments/tr_WDqYK6vllg') {
  nock(host)
    .get(path)
    .reply(function (this: NockRequest) {
      bearers.push(headerOf(this.req, 'Authorization'));
      return [200, mollieFixture('payment-open')];
    });
}

describe.each(TEST_DATABASES)('provider registry on %s', (kind) => {
  describe('without MOLLIE_API_KEY', () => {
    const t = useTestApp(kind);

    const named = async () => {
      const name = `Registry ${randomBytes(4).toString('hex')}`;
      const { accountId } = await t.newAccount(name);
      return { name, accountId };
    };

    it('When the account has no key, then it uses the sandbox', async () => {
      const { accountId } = await named();
      expect((await t.ctx.providers.forAccount({ id: accountId })).name).toBe('sandbox');
    });

    it(
      'When the account has its own key, then Mollie is called with that key; a changed key takes effect at once; a cleared one ' +
        'falls back to the sandbox',
      async () => {
        const { name, accountId } = await named();
        await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
        const bearers: Array<string | undefined> = [];

        const first = await t.ctx.providers.forAccount({ id: accountId });
        expect(first.name).toBe('mollie');
        expect(await t.ctx.providers.forAccount({ id: accountId })).toBe(first);
        expectGet(bearers);
        await first.getPayment('tr_WDqYK6vllg');

        await setProviderSettings(t.ctx, name, { mollieApiKey: OTHER_KEY, allowLive: false });
        const second = await t.ctx.providers.forAccount({ id: accountId });
        expect(second).not.toBe(first);
        expectGet(bearers);
        await second.getPayment('tr_WDqYK6vllg');
        expect(bearers).toEqual([`Bearer ${TEST_MOLLIE_KEY}`, `Bearer ${OTHER_KEY}`]);

        await clearProviderSettings(t.ctx, name);
        expect((await t.ctx.providers.forAccount({ id: accountId })).name).toBe('sandbox');
      },
    );

    it('When the account has its own API URL, then its requests go there', async () => {
      const { name, accountId } = await named();
      await setProviderSettings(t.ctx, name, {
        mollieApiKey: TEST_MOLLIE_KEY,
        mollieApiUrl: 'https://mollie-proxy.example.nl/v2/',
        allowLive: false,
      });
      const bearers: Array<string | undefined> = [];
      expectGet(bearers, 'https://mollie-proxy.example.nl');
      await (await t.ctx.providers.forAccount({ id: accountId })).getPayment('tr_WDqYK6vllg');
      expect(bearers).toEqual([`Bearer ${TEST_MOLLIE_KEY}`]);
    });

    it(
      'When a live key is found that was stored without --allow-live (a copied production database), then it is refused and Mollie ' +
        'is not called',
      async () => {
        const { accountId, name } = await named();
        await t.ctx
          .db('accounts')
          .where({ id: accountId })
          .update({
            provider: 'mollie',
            provider_credentials_sealed: sealMollieKey(t.ctx.config.appKey, { key: LIVE_KEY, allowLive: false }),
          });
        await expect(t.ctx.providers.forAccount({ id: accountId })).rejects.toBeInstanceOf(LiveKeyRefusedError);

        const { token } = await t.newAccount(`${name} API`);
        const apiAccount = await t.ctx
          .db('accounts')
          .where({ name: `${name} API` })
          .first('id');
        await t.ctx
          .db('accounts')
          .where({ id: apiAccount.id })
          .update({
            provider: 'mollie',
            provider_credentials_sealed: sealMollieKey(t.ctx.config.appKey, { key: LIVE_KEY, allowLive: false }),
          });
        const res = await t.as(token).post('/api/v2/customers', { first_name: 'A', last_name: 'B', email: 'a@example.nl' });
        expect(res.status).toBe(502);
        expect(res.body).toMatchObject({ code: 'provider_live_key_refused' });
        expect(JSON.stringify(res.body)).not.toContain(LIVE_KEY);
        expect(await t.ctx.db('customers').where({ account_id: apiAccount.id })).toEqual([]);
      },
    );

    it('When a live key was set with --allow-live, then it is used outside production', async () => {
      const { name, accountId } = await named();
      await setProviderSettings(t.ctx, name, { mollieApiKey: LIVE_KEY, allowLive: true });
      const bearers: Array<string | undefined> = [];
      expectGet(bearers);
      await (await t.ctx.providers.forAccount({ id: accountId })).getPayment('tr_WDqYK6vllg');
      expect(bearers).toEqual([`Bearer ${LIVE_KEY}`]);
    });

    it('When the account has an organization token, then requests carry its profile and test mode outside production', async () => {
      const { name, accountId } = await named();
      const token = `access_${'O'.repeat(40)}`;
      await setProviderSettings(t.ctx, name, { mollieApiKey: token, profileId: 'pfl_QkEhN94Ba', allowLive: false });
      const bodies: unknown[] = [];
      mollie()
        .post('/v2/customers')
        .reply((_uri, body) => {
          bodies.push(body);
          return [201, mollieFixture('customer')];
        });
      await (
        await t.ctx.providers.forAccount({ id: accountId })
      ).createCustomer({ name: 'A B', email: 'a@example.nl', locale: null, reference: 'cus_1' }, 'customer-cus_1');
      expect(bodies).toEqual([{ name: 'A B', email: 'a@example.nl', metadata: { customer_id: 'cus_1' }, testmode: true }]);
    });

    it('When the stored key was encrypted with another APP_KEY, then it is a clear server error, not garbage', async () => {
      const { accountId } = await named();
      const otherAppKey = randomBytes(32);
      await t.ctx
        .db('accounts')
        .where({ id: accountId })
        .update({
          provider: 'mollie',
          provider_credentials_sealed: sealMollieKey(otherAppKey, { key: TEST_MOLLIE_KEY, allowLive: false }),
        });
      await expect(t.ctx.providers.forAccount({ id: accountId })).rejects.toBeInstanceOf(UnreadableMollieKeyError);
    });
  });

  describe('with MOLLIE_API_KEY and MOLLIE_API_URL', () => {
    const t = useTestApp(kind, {
      env: { MOLLIE_API_KEY: ENV_KEY, MOLLIE_API_URL: 'https://mollie-env.example.nl/v2/', PUBLIC_URL: 'http://localhost:3000' },
    });

    it('When the account has no key, then it uses the environment key and URL', async () => {
      const { accountId } = await t.newAccount(`Env ${randomBytes(4).toString('hex')}`);
      const bearers: Array<string | undefined> = [];
      expectGet(bearers, 'https://mollie-env.example.nl');
      const provider = await t.ctx.providers.forAccount({ id: accountId });
      expect(provider.name).toBe('mollie');
      await provider.getPayment('tr_WDqYK6vllg');
      expect(bearers).toEqual([`Bearer ${ENV_KEY}`]);
    });

    it('When the account has its own key, then that key wins (and, without a URL of its own, it goes to MOLLIE_API_URL)', async () => {
      const name = `Own ${randomBytes(4).toString('hex')}`;
      const { accountId } = await t.newAccount(name);
      await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
      const bearers: Array<string | undefined> = [];
      expectGet(bearers, 'https://mollie-env.example.nl');
      await (await t.ctx.providers.forAccount({ id: accountId })).getPayment('tr_WDqYK6vllg');
      expect(bearers).toEqual([`Bearer ${TEST_MOLLIE_KEY}`]);
    });

    it('When PUBLIC_URL is localhost, then payments go without a webhookUrl and the warning is logged once', async () => {
      const { accountId } = await t.newAccount(`Local ${randomBytes(4).toString('hex')}`);
      const bodies: unknown[] = [];
      nock('https://mollie-env.example.nl')
        .post('/v2/payments')
        .times(2)
        .reply((_uri, body) => {
          bodies.push(body);
          return [201, mollieFixture('payment-open')];
        });
      const provider = await t.ctx.providers.forAccount({ id: accountId });
      t.logs.lines.length = 0;
      await provider.createPayment(payment, 'payment-pay_1');
      await provider.createPayment({ ...payment, reference: 'pay_2' }, 'payment-pay_2');
      expect(bodies).toHaveLength(2);
      for (const body of bodies) expect(body).not.toHaveProperty('webhookUrl');
      expect(t.logs.lines.filter((line) => line.includes('Mollie cannot deliver webhooks'))).toHaveLength(1);
    });
  });
});
