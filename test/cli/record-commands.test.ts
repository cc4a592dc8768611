import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { cli } from './runInMemory';

/** `cli customers|subscriptions|payments list|show`: what the API gives, on the operator's terminal. */
describe.each(TEST_DATABASES)('cli customers, subscriptions and payments on %s', (kind) => {
  const t = useTestApp(kind);
  const ACCOUNT = 'Records Shop';
  let token: string;
  let customerId: string;
  let subscriptionId: string;
  let paymentId: string;

  beforeAll(async () => {
    ({ token } = await t.newAccount(ACCOUNT));
    ({ customerId, subscriptionId } = await subscribe(t, token, { email: 'anna@records.example' }));
    const customer = (await t.as(token).get(`/api/v2/customers/${customerId}`)).body;
    const payment = await t.as(token).post('/api/v2/payments', {
      amount: 12.5,
      currency: 'EUR',
      provider_customer_id: customer.provider_customer_id,
      description: 'Order 1001',
      redirect_url: 'https://shop.example/thanks',
    });
    expect(payment.status).toBe(201);
    paymentId = payment.body.id;
  });

  /** What a `show` printed, read back as the JSON it is. */
  const shown = async (...argv: string[]) => {
    const result = await cli(t.ctx, ...argv);
    expect(result).toMatchObject({ code: 0, err: [] });
    return JSON.parse(result.out.join('\n'));
  };

  it('When customers are listed, then each is one line: id, created, name, e-mail, provider customer id', async () => {
    const customer = (await t.as(token).get(`/api/v2/customers/${customerId}`)).body;
    expect(await cli(t.ctx, 'customers', 'list', '--account', ACCOUNT)).toEqual({
      code: 0,
      out: [`${customerId}  ${customer.created_at}  Anna de Vries  anna@records.example  ${customer.provider_customer_id}`],
      err: [],
    });
  });

  it('When a customer, a subscription or a payment is shown, then it prints what the API answers for it', async () => {
    expect(await shown('customers', 'show', customerId, '--account', ACCOUNT)).toEqual(
      (await t.as(token).get(`/api/v2/customers/${customerId}`)).body,
    );
    expect(await shown('subscriptions', 'show', subscriptionId, '--account', ACCOUNT)).toEqual(
      (await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body,
    );
    expect(await shown('payments', 'show', paymentId, '--account', ACCOUNT)).toEqual(
      (await t.as(token).get(`/api/v2/payments/${paymentId}`)).body,
    );
  });

  it('When subscriptions are listed, then each is one line with status, next payment, customer and name; --status filters', async () => {
    const subscription = (await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body;
    const next = `next ${subscription.next_payment_at} ${subscription.next_amount}`;
    const line = `${subscriptionId}  active  ${next}  anna@records.example  Coffee box`;
    expect(await cli(t.ctx, 'subscriptions', 'list', '--account', ACCOUNT)).toEqual({ code: 0, out: [line], err: [] });
    expect(await cli(t.ctx, 'subscriptions', 'list', '--account', ACCOUNT, '--status', 'active', '--customer', customerId)).toEqual({
      code: 0,
      out: [line],
      err: [],
    });
    expect(await cli(t.ctx, 'subscriptions', 'list', '--account', ACCOUNT, '--status', 'paused')).toEqual({
      code: 0,
      out: ['No subscriptions'],
      err: [],
    });
  });

  it('When payments are listed, then each is one line with created, status, amount, sequence type, customer and description', async () => {
    const payment = (await t.as(token).get(`/api/v2/payments/${paymentId}`)).body;
    expect(await cli(t.ctx, 'payments', 'list', '--account', ACCOUNT, '--status', 'open')).toEqual({
      code: 0,
      out: [`${paymentId}  ${payment.created_at}  open  12.50 EUR  oneoff  ${customerId}  Order 1001`],
      err: [],
    });
  });

  it('When a list has more than one page, then --per-page and --page walk it, and stderr says where the page stands', async () => {
    const paged = await t.newAccount('Paged Shop');
    const ids: string[] = [];
    for (const email of ['a@paged.example', 'b@paged.example', 'c@paged.example']) {
      const customer = await t.as(paged.token).post('/api/v2/customers', { first_name: 'Paged', last_name: 'Buyer', email });
      ids.push(customer.body.id);
    }
    const first = await cli(t.ctx, 'customers', 'list', '--account', 'Paged Shop', '--per-page', '2');
    expect(first.code).toBe(0);
    expect(first.out.map((line) => line.split('  ')[0])).toEqual(ids.slice(0, 2));
    expect(first.err).toEqual(['page 1 of 2 (3 customers; --page <n> for another)']);
    const second = await cli(t.ctx, 'customers', 'list', '--account', 'Paged Shop', '--per-page', '2', '--page', '2');
    expect(second.out.map((line) => line.split('  ')[0])).toEqual(ids.slice(2));
    expect(second.err).toEqual(['page 2 of 2 (3 customers; --page <n> for another)']);
    // Another account's customer is not this account's to show.
    expect(await cli(t.ctx, 'customers', 'show', customerId, '--account', 'Paged Shop')).toEqual({
      code: 1,
      out: [],
      err: [`error: No customer ${customerId} in account "Paged Shop"`],
    });
  });

  it.each([
    [['customers', 'show', 'cus_nothere', '--account', ACCOUNT], `error: No customer cus_nothere in account "${ACCOUNT}"`],
    [['subscriptions', 'show', 'sub_nothere', '--account', ACCOUNT], `error: No subscription sub_nothere in account "${ACCOUNT}"`],
    [['payments', 'show', 'pay_nothere', '--account', ACCOUNT], `error: No payment pay_nothere in account "${ACCOUNT}"`],
    [['customers', 'list', '--account', 'Nobody'], 'error: No account named "Nobody"'],
    [
      ['payments', 'list', '--account', ACCOUNT, '--status', 'lost'],
      `error: --status is one of creating, rejected, open, pending, authorized, paid, canceled, expired, failed, refunded, charged_back`,
    ],
    [['customers', 'list', '--account', ACCOUNT, '--per-page', '101'], 'error: --per-page is a whole number from 1 to 100'],
  ])('When %p is run, then it prints one error line and exits with 1', async (argv, message) => {
    expect(await cli(t.ctx, ...argv)).toEqual({ code: 1, out: [], err: [message] });
  });
});
