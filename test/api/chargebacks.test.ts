import { TEST_DATABASES } from '../support/databases';
import type { MollieFake } from '../../fakes/mollie/fake';
import { fakeMollieOnClock } from '../../fakes/mollie/nock';
import { billableAccountWithToken, mollieCallsWebhook, paidCharges } from '../support/paidCharges';
import { useTestApp } from '../support/testApp';

/**
 * Chargebacks reported by Mollie through POST /webhooks/mollie: Mollie keeps a charged-back payment
 * `paid` and reports the money taken back in amountChargedBack, which may be part of the payment.
 * The payment becomes charged_back and its follow-up asks for what was taken back, no more.
 */
describe.each(TEST_DATABASES)('chargebacks on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let fake: MollieFake;
  let stopFake: () => void;
  let accountId: string;
  let token: string;
  let charge: { id: string; provider_payment_id: string };

  beforeEach(async () => {
    ({ fake, stop: stopFake } = fakeMollieOnClock(t.clock));
    ({ accountId, token } = await billableAccountWithToken(t, fake));
    const [paid] = await paidCharges(t, fake, accountId); // 12.50
    if (!paid) throw new Error('no charge');
    charge = paid;
  });
  afterEach(async () => {
    stopFake();
  });

  const followUps = async () => (await t.as(token).get('/api/v2/follow-ups')).body.data as Array<Record<string, unknown>>;
  const status = async () => (await t.as(token).get(`/api/v2/payments/${charge.id}`)).body.status;

  it(
    'When the bank takes back part of a paid charge, then the payment is charged_back and its follow-up is for the amount taken ' + 'back',
    async () => {
      fake.chargeBack(charge.provider_payment_id, 500);
      expect(fake.payments.get(charge.provider_payment_id)?.status).toBe('paid');
      await mollieCallsWebhook(t, accountId, charge.provider_payment_id);

      expect(await status()).toBe('charged_back');
      expect(await followUps()).toEqual([
        expect.objectContaining({ reason_code: 'MD06', amount: '5.00', currency: 'EUR', provider_payment_id: charge.provider_payment_id }),
      ]);
      expect(Number((await t.ctx.db('payments').where({ id: charge.id }).first()).amount_charged_back)).toBe(500);
    },
  );

  it('When the bank takes back all of it, then the follow-up is for the whole payment', async () => {
    fake.chargeBack(charge.provider_payment_id);
    await mollieCallsWebhook(t, accountId, charge.provider_payment_id);

    expect(await status()).toBe('charged_back');
    expect(await followUps()).toEqual([expect.objectContaining({ reason_code: 'MD06', amount: '12.50' })]);
  });
});
