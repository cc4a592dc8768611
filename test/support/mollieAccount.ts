import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { processDueWebhookCalls } from '../../src/webhooks/inbound/calls';
import { TEST_MOLLIE_KEY } from '../providers/mollieNock';
import type { MollieFake } from './mollieFake/fake';
import { fakeMollieOnClock } from './mollieFake/nock';
import type { TestApp } from './testApp';

/** A new account whose provider is a Mollie fake on the test's clock, and how Mollie's news reaches the service. */
export interface MollieAccount {
  fake: MollieFake;
  name: string;
  accountId: string;
  token: string;
  /** Mollie reports a payment's new status: its webhook is called and processed, and what follows is waited for. */
  report(providerPaymentId: string): Promise<void>;
  /** The payer completes our first payment at Mollie's checkout by card (a valid mandate), and Mollie reports it. */
  payFirst(paymentId: string): Promise<void>;
  stop(): void;
}

export async function accountAtMollieFake(t: TestApp, prefix: string): Promise<MollieAccount> {
  const { fake, stop } = fakeMollieOnClock(t.clock);
  const name = `${prefix} ${randomBase62(8)}`;
  const { accountId, token } = await t.newAccount(name);
  await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
  const publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref as string;
  const report = async (providerPaymentId: string) => {
    expect((await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: providerPaymentId })).status).toBe(200);
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  };
  const payFirst = async (paymentId: string) => {
    const row = await t.ctx.db('payments').where({ account_id: accountId, id: paymentId }).first();
    fake.payFirstPayment(row.provider_payment_id);
    await report(row.provider_payment_id);
  };
  return { fake, name, accountId, token, report, payFirst, stop };
}
