import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { billableAccountWithToken, mollieCallsWebhook } from '../support/paidCharges';
import { useTestApp } from '../support/testApp';

const MINUTE = 60_000;
const PAYMENTS = /^\/v2\/payments/;
const CUSTOMER_PAYMENTS = /^\/v2\/customers\/[^/]+\/payments/;

/**
 * A charge's payment given up as rejected leaves the charge `not_charged` and a mandate follow-up that asks the
 * customer to pay the period by link. When Mollie held the payment after all and it fails there, the customer is
 * still asked for that period once, not by a second follow-up of the same charge.
 */
describe.each(TEST_DATABASES)('a rejected charge payment that fails at Mollie after all, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let fake: MollieFake;
  let served: { stop(): void };
  let accountId: string;

  beforeEach(async () => {
    t.clock.set('2026-12-01T06:00:00Z');
    fake = new MollieFake('https://api.mollie.com');
    fake.now = () => t.clock.now().getTime();
    served = serveWithNock(fake);
    ({ accountId } = await billableAccountWithToken(t, fake));
  });
  afterEach(async () => {
    served.stop();
  });

  const bill = async () => expect((await cli(t.ctx, 'billing', 'run', '--date', '2026-12-01')).code).toBe(0);

  it('When the payment given up as rejected fails at Mollie, then the period is asked for by one follow-up only', async () => {
    fake.loseAnswers('POST', PAYMENTS, 1);
    await bill();
    const [kept] = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
    const [made] = fake.paymentsWithReference(kept.id);
    fake.refuse('GET', CUSTOMER_PAYMENTS, { status: 200, body: { count: 0, _embedded: { payments: [] }, _links: { next: null } } });
    fake.refuse(
      'POST',
      PAYMENTS,
      { status: 422, body: { status: 422, title: 'Unprocessable Entity', detail: 'The mandate is invalid', field: 'mandateId' } },
      1,
    );
    t.clock.advance(2 * MINUTE);
    await bill();
    expect(await t.ctx.db('subscription_charges').where({ account_id: accountId })).toEqual([
      expect.objectContaining({ status: 'not_charged' }),
    ]);
    expect(await t.ctx.db('follow_ups').where({ account_id: accountId })).toEqual([
      expect.objectContaining({ kind: 'mandate', status: 'pending' }),
    ]);

    fake.heal();
    fake.setPaymentStatus(String(made?.id), 'failed');
    await mollieCallsWebhook(t, accountId, String(made?.id));
    expect((await t.ctx.db('payments').where({ id: kept.id }).first()).status).toBe('failed');
    expect(await t.ctx.db('follow_ups').where({ account_id: accountId, status: 'pending' })).toEqual([
      expect.objectContaining({ kind: 'mandate' }),
    ]);
  });
});
