import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { TEST_MOLLIE_KEY } from './mollieNock';
import type { MollieFake } from '../../fakes/mollie/fake';
import { fakeMollieOnClock } from '../../fakes/mollie/nock';
import type { TestApp } from './testApp';

export interface CustomerAnswer {
  id: string;
  provider_customer_id: string;
}

export interface SubscriptionAnswer {
  id: string;
  status: string;
  start_date: string;
  next_payment_at: string | null;
  rules: Array<{ times: number | null; times_done: number }>;
  customer: { id: string };
}

/** A new account whose provider is a Mollie fake on the test's clock, and how its customers pay and are billed. */
export interface MollieAccount {
  fake: MollieFake;
  name: string;
  accountId: string;
  token: string;
  newCustomer(): Promise<CustomerAnswer>;
  /** Mollie reports a payment's new status: its webhook is called and processed, and what follows is waited for. */
  report(providerPaymentId: string): Promise<void>;
  /**
   * The payer completes our first payment at Mollie's checkout by card, and Mollie reports it; the
   * card mandate it leaves is valid, or still `pending` when told so. Answers the mandate's id.
   */
  payFirst(paymentId: string, mandate?: 'valid' | 'pending'): Promise<string>;
  /** The buyer presses pay on a link's page (the link names its customer), then pays as payFirst. */
  payLink(linkId: string, mandate?: 'valid' | 'pending'): Promise<string>;
  /** The customer's one subscription, as the API answers it. */
  subscriptionOf(customerId: string): Promise<SubscriptionAnswer>;
  /**
   * On `date` (the clock set to it): `cli billing run`, then every charge it made is paid at Mollie and reported. Answers the run's summary
   * line.
   */
  billOn(date: string): Promise<string>;
  /**
   * Bills on each next charge date of the customer's subscription until it is no longer active (each
   * run charges it once), then once more two years after its start, which charges nothing. Answers it as it ended.
   */
  billThroughLife(customerId: string): Promise<SubscriptionAnswer>;
  /** Every payment Mollie holds for the customer, whatever made it. */
  paymentsAtMollie(customer: CustomerAnswer): Array<Record<string, unknown>>;
  stop(): void;
}

export async function accountAtMollieFake(t: TestApp, prefix: string): Promise<MollieAccount> {
  const { fake, stop } = fakeMollieOnClock(t.clock);
  const name = `${prefix} ${randomBase62(8)}`;
  const { accountId, token } = await t.newAccount(name);
  await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
  const publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref as string;

  const report = async (providerPaymentId: string) => {
    expect((await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: providerPaymentId })).status).toBe(
      200,
    );
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  };
  const payFirst = async (paymentId: string, mandate: 'valid' | 'pending' = 'valid') => {
    const row = await t.ctx.db('payments').where({ account_id: accountId, id: paymentId }).first();
    const mandateId = fake.payFirstPayment(row.provider_payment_id);
    fake.setMandateStatus(mandateId, mandate);
    await report(row.provider_payment_id);
    return mandateId;
  };
  const subscriptionOf = async (customerId: string) => {
    const list = (await t.as(token).get('/api/v2/subscriptions?per_page=100')).body.data as SubscriptionAnswer[];
    const mine = list.filter((subscription) => subscription.customer.id === customerId);
    expect(mine).toHaveLength(1);
    return mine[0] as SubscriptionAnswer;
  };
  const billOn = async (date: string) => {
    t.clock.set(`${date}T07:00:00Z`);
    const run = await cli(t.ctx, 'billing', 'run', '--date', date);
    expect(run.code).toBe(0);
    for (const charge of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge', status: 'pending' })) {
      fake.setPaymentStatus(charge.provider_payment_id, 'paid');
      await report(charge.provider_payment_id);
    }
    return run.out[0] ?? '';
  };
  return {
    fake,
    name,
    accountId,
    token,
    report,
    payFirst,
    stop,
    async newCustomer() {
      const res = await t
        .as(token)
        .post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl', locale: 'en' });
      expect(res.status).toBe(201);
      return res.body as CustomerAnswer;
    },
    async payLink(linkId, mandate) {
      expect((await request(t.app).post(`/pay/${linkId}`).type('form').send({})).status).toBe(303);
      const row = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'link', purpose_id: linkId }).first();
      return payFirst(row.id, mandate);
    },
    subscriptionOf,
    billOn,
    async billThroughLife(customerId) {
      for (let run = 0; run < 24; run += 1) {
        const subscription = await subscriptionOf(customerId);
        if (subscription.status !== 'active' || subscription.next_payment_at === null) break;
        expect(await billOn(subscription.next_payment_at)).toContain(' 1 charged');
      }
      const ended = await subscriptionOf(customerId);
      expect(await billOn(`${Number(ended.start_date.slice(0, 4)) + 2}${ended.start_date.slice(4)}`)).toContain(' 0 charged');
      return ended;
    },
    paymentsAtMollie(customer) {
      return [...fake.payments.values()].filter((payment) => payment.customerId === customer.provider_customer_id);
    },
  };
}
