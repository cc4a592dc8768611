import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { finishStalledCreations } from '../../src/jobs/finishProviderCreations';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { useTestApp } from '../support/testApp';

/**
 * The pay button of a link against a Mollie that does its work but whose answer is lost: the buyer
 * sees "try again", and pressing again — or the job, if they leave — ends with one payment at Mollie.
 */
describe.each(TEST_DATABASES)('the pay page when Mollie’s answer is lost, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true });
  let fake: MollieFake;
  let served: { stop(): void };

  beforeEach(async () => {
    fake = new MollieFake('https://api.mollie.com');
    fake.now = () => t.clock.now().getTime();
    served = serveWithNock(fake);
  });
  afterEach(async () => {
    served.stop();
  });

  async function linkForCustomer() {
    const name = `Link lost ${randomBase62(8)}`;
    const { accountId, token } = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
    const customer = await t
      .as(token)
      .post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl', locale: 'en' });
    const link = await t
      .as(token)
      .post('/api/v2/links', { type: 'payment', description: 'Invoice 7', amount: 25, customer_id: customer.body.id });
    expect(link.status).toBe(201);
    return { accountId, linkId: link.body.id as string };
  }

  const press = (linkId: string) => request(t.app).post(`/pay/${linkId}`).type('form').send({});
  const linkPayments = (accountId: string, linkId: string) =>
    t.ctx.db('payments').where({ account_id: accountId, purpose: 'link', purpose_id: linkId });

  it(
    'When the answer to the payment is lost, then the page says try again and the next press goes to the one payment Mollie ' + 'made',
    async () => {
      const { accountId, linkId } = await linkForCustomer();
      fake.loseAnswers('POST', /^\/v2\/payments/, 1);

      const first = await press(linkId);
      expect(first.status).toBe(502);
      expect(first.text).toContain('Payment not possible right now');
      const [kept] = await linkPayments(accountId, linkId);
      expect(kept).toMatchObject({ status: 'creating' });
      expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);

      const second = await press(linkId);
      expect(second.status).toBe(303);
      expect(second.headers.location).toMatch(/^https:\/\/www\.mollie\.com\/checkout\//);
      expect(await linkPayments(accountId, linkId)).toHaveLength(1);
      expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);
    },
  );

  it('When the buyer leaves after the lost answer, then the job finishes the same payment and a later press reuses it', async () => {
    const { accountId, linkId } = await linkForCustomer();
    fake.loseAnswers('POST', /^\/v2\/payments/, 1);
    expect((await press(linkId)).status).toBe(502);

    t.clock.advance(3 * 60_000);
    await finishStalledCreations(t.ctx, new AbortController().signal);
    const [finished] = await linkPayments(accountId, linkId);
    expect(finished).toMatchObject({ status: 'open' });

    expect((await press(linkId)).headers.location).toBe(finished.checkout_url);
    expect(await linkPayments(accountId, linkId)).toHaveLength(1);
    expect(fake.paymentsWithReference(finished.id)).toHaveLength(1);
  });
});
