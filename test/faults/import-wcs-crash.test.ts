import type { Account } from '../../src/modules/accounts/account';
import { randomBase62 } from '../../src/ids';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';
import { cli } from '../cli/runInMemory';
import { connectedSimulatorStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { runCliProcess, startCliProcess } from '../support/serviceProcess';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/testApp';
import { expectCleanAudit } from '../support/audit';

// A child process imports, is killed and runs again; on a busy 2-core CI machine that takes a while.
jest.setTimeout(180_000);

const SUBSCRIPTIONS = 30;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The `woocommerce-subscriptions` import as an operator runs it from the CLI, killed with SIGKILL while
 * it takes subscriptions over (between any two writes, store or provider calls: after ours was made
 * and before the store was switched, say), then run again: the end state is that of one clean run.
 * The store simulator is reached over HTTP, the provider is the sandbox (in the database).
 */
describe.each(TEST_DATABASES)('a WooCommerce Subscriptions import killed halfway, on %s', (kind) => {
  let t: TestApp;
  const stores: WooSimulator[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => expectCleanAudit(t.ctx));
  afterAll(async () => {
    await t.ctx.background.idle();
    await Promise.all(stores.map((store) => store.stop()));
    await t.close();
  });

  const env = () => ({
    NODE_ENV: 'test',
    DATABASE_URL: t.ctx.config.DATABASE_URL,
    APP_KEY: `base64:${t.ctx.config.appKey.toString('base64')}`,
    PUBLIC_URL: TEST_PUBLIC_URL,
    OUTBOUND_ALLOW_PRIVATE: 'on',
  });

  /** An account with a connected store of SUBSCRIPTIONS subscriptions on Mollie's gateway, each on its own mandate at the provider. */
  async function accountWithStore(name: string): Promise<{ accountId: string; store: WooSimulator }> {
    const { accountId, token } = await t.newAccount(name);
    const store = await connectedSimulatorStore(t, token);
    stores.push(store);
    const account = (await t.ctx.db('accounts').where({ id: accountId }).first()) as Account;
    const provider = await t.ctx.providers.forAccount(account);
    const product = store.addSubscriptionProduct({ name: 'Coffee of the month', price: '9.95', period: 'month' });
    for (let index = 1; index <= SUBSCRIPTIONS; index += 1) {
      const n = String(index).padStart(3, '0');
      const customer = await provider.createCustomer(
        { name: `Customer ${n}`, email: `c${n}@example.test`, locale: null, reference: n },
        `c-${n}`,
      );
      const mandate = await provider.createMandate(
        {
          customerId: customer.id,
          consumerName: `Customer ${n}`,
          consumerAccount: 'NL91ABNA0417164300',
          consumerBic: null,
          signatureDate: '2025-01-02',
          mandateReference: `WCS-${n}`,
        },
        `m-${n}`,
      );
      const line = { product_id: product, quantity: 1, total: '9.95', subtotal: '9.95', subtotal_tax: '0.00' };
      const [parent] = store.addOrders(1, () => ({ status: 'completed', total: '9.95', line_items: [{ id: 1, ...line }] })) as [number];
      store.addSubscription(
        {
          parent_id: parent,
          total: '9.95',
          next_payment_date_gmt: '2030-01-10T09:00:00',
          line_items: [{ id: 1, name: 'Coffee of the month', variation_id: 0, total_tax: '0.00', ...line }],
          billing: { first_name: 'Customer', last_name: n, email: `c${n}@example.test` },
        },
        { _mollie_customer_id: customer.id, _mollie_mandate_id: mandate.id },
      );
    }
    return { accountId, store };
  }

  const countOf = async (table: string, accountId: string) =>
    Number((await t.ctx.db(table).where({ account_id: accountId }).count({ n: '*' }))[0]?.n);
  /** What the import made, in the account and in its store, without ids. */
  const endState = async (accountId: string, store: WooSimulator) => ({
    customers: await countOf('customers', accountId),
    mandates: await countOf('mandates', accountId),
    orders: await countOf('orders', accountId),
    linkedLines: Number(
      (await t.ctx.db('order_lines').where({ account_id: accountId }).whereNotNull('subscription_id').count({ n: '*' }))[0]?.n,
    ),
    subscriptions: (
      await t.ctx
        .db('subscriptions')
        .where({ account_id: accountId })
        .orderBy('shop_subscription_id')
        .select('source', 'status', 'handover_pending', 'next_payment_at', 'next_charge_number', 'next_amount', 'origin_order_id')
    ).map((row) => ({ ...row, handover_pending: Boolean(row.handover_pending), origin_order_id: row.origin_order_id !== null })),
    inStore: [...store.subscriptions.values()].map((one) => [one.payment_method, one.requires_manual_renewal]),
  });

  it('When the CLI is killed halfway and run again, then each is taken over and handed over once, as in a clean run', async () => {
    const clean = await accountWithStore(`Clean ${randomBase62(8)}`);
    const cleanName = (await t.ctx.db('accounts').where({ id: clean.accountId }).first()).name as string;
    expect((await cli(t.ctx, 'import', 'woocommerce-subscriptions', '--account', cleanName)).code).toBe(0);

    const name = `Crash ${randomBase62(8)}`;
    const crashed = await accountWithStore(name);
    const running = startCliProcess(env(), ['import', 'woocommerce-subscriptions', '--account', name]);
    for (let waited = 0; (await countOf('subscriptions', crashed.accountId)) < 8; waited += 20) {
      if (waited > 90_000) throw new Error(`the import made no 8 subscriptions in 90 s: ${(await running.exited).stderr}`);
      await sleep(20);
    }
    await running.crash();
    expect(await countOf('subscriptions', crashed.accountId)).toBeLessThan(SUBSCRIPTIONS);
    const [killed] = await t.ctx.db('imports').where({ account_id: crashed.accountId });
    expect(killed.status).toBe('running');

    const again = await runCliProcess(env(), ['import', 'woocommerce-subscriptions', '--account', name]);
    expect(again.code).toBe(0);
    expect(again.stdout.trim().split('\n').pop()).toMatch(new RegExp(`${SUBSCRIPTIONS} rows: \\d+ created, \\d+ skipped, 0 failed$`));

    const state = await endState(crashed.accountId, crashed.store);
    expect(state).toEqual(await endState(clean.accountId, clean.store));
    expect(state).toMatchObject({ customers: SUBSCRIPTIONS, mandates: SUBSCRIPTIONS, orders: SUBSCRIPTIONS, linkedLines: SUBSCRIPTIONS });
    expect(state.subscriptions).toHaveLength(SUBSCRIPTIONS);
    expect(state.subscriptions[0]).toMatchObject({
      handover_pending: false,
      next_charge_number: 2,
      next_amount: 995,
      origin_order_id: true,
    });
    expect(new Set(state.inStore.map(String))).toEqual(new Set(['rps,false']));
  });
});
