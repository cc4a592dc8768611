import { ProviderNotFoundError } from '../../src/providers/errors';
import { sandboxSubscriptions } from '../../src/providers/sandbox/subscriptions';
import type { PaymentProvider, ProviderSubscription } from '../../src/providers/types';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const subscriptionAt = (customerId: string, id: string, fields: Partial<ProviderSubscription> = {}): ProviderSubscription => ({
  id,
  customerId,
  mandateId: 'mdt_sandbox0001',
  status: 'active',
  amount: 1250,
  currency: 'EUR',
  interval: { unit: 'month', count: 1 },
  intervalText: '1 month',
  intervalProblem: null,
  times: null,
  timesRemaining: null,
  startDate: '2026-09-01',
  nextPaymentDate: '2026-12-01',
  description: 'Coffee of the month',
  metadata: null,
  canceledAt: null,
  ...fields,
});

describe.each(TEST_DATABASES)('sandbox provider: customers and provider-billed subscriptions, on %s', (kind) => {
  const t = useTestApp(kind);

  afterEach(() => sandboxSubscriptions.clear());

  async function sandbox(): Promise<{ accountId: string; provider: PaymentProvider }> {
    const { accountId } = await t.newAccount();
    const provider = await t.ctx.providers.forAccount({ id: accountId });
    expect(provider.name).toBe('sandbox');
    return { accountId, provider };
  }

  it('When the account has customers at the sandbox, then they are listed newest first, one page, no next cursor', async () => {
    const { provider } = await sandbox();
    expect(await provider.listCustomers()).toEqual({ customers: [], next: null });
    const first = await provider.createCustomer({ name: 'Anna', email: 'anna@example.nl', locale: null, reference: 'cus_1' }, 'k-1');
    t.clock.advance(1000);
    const second = await provider.createCustomer({ name: 'Bram', email: 'bram@example.nl', locale: null, reference: 'cus_2' }, 'k-2');
    expect(await provider.listCustomers()).toEqual({
      customers: [
        { id: second.id, name: 'Bram', email: 'bram@example.nl' },
        { id: first.id, name: 'Anna', email: 'anna@example.nl' },
      ],
      next: null,
    });
  });

  it('When nothing was put in, then a customer has no subscriptions at the sandbox', async () => {
    const { provider } = await sandbox();
    expect(await provider.listSubscriptions('cst_anyone0001')).toEqual([]);
  });

  it(
    'When a test put a subscription in, then it is listed for its account and customer only, ' + 'canceled once, and again safely',
    async () => {
      const { accountId, provider } = await sandbox();
      const other = await sandbox();
      const payment = {
        id: 'tr_sandbox0001',
        status: 'pending' as const,
        amount: 1250,
        currency: 'EUR',
        method: 'directdebit',
        checkoutUrl: null,
        customerId: 'cst_sandbox0001',
        mandateId: 'mdt_sandbox0001',
        paidAt: null,
        failureReason: null,
        failureCode: null,
        amountRefunded: 0,
        amountChargedBack: 0,
        reference: null,
        createdAt: t.clock.now(),
      };
      sandboxSubscriptions.put(accountId, subscriptionAt('cst_sandbox0001', 'sub_sandbox0001'), [payment]);
      expect(await provider.listSubscriptions('cst_sandbox0001')).toEqual([subscriptionAt('cst_sandbox0001', 'sub_sandbox0001')]);
      expect(await other.provider.listSubscriptions('cst_sandbox0001')).toEqual([]);
      expect(await provider.listSubscriptionPayments('cst_sandbox0001', 'sub_sandbox0001')).toEqual([payment]);

      const canceled = await provider.cancelSubscription('cst_sandbox0001', 'sub_sandbox0001');
      expect(canceled).toEqual(
        subscriptionAt('cst_sandbox0001', 'sub_sandbox0001', { status: 'canceled', canceledAt: t.clock.now(), nextPaymentDate: null }),
      );
      t.clock.advance(60_000);
      expect(await provider.cancelSubscription('cst_sandbox0001', 'sub_sandbox0001')).toEqual(canceled);
      expect((await provider.listSubscriptions('cst_sandbox0001'))[0]?.status).toBe('canceled');
      await expect(other.provider.cancelSubscription('cst_sandbox0001', 'sub_sandbox0001')).rejects.toBeInstanceOf(ProviderNotFoundError);
      await expect(provider.listSubscriptionPayments('cst_sandbox0001', 'sub_unknown0001')).rejects.toBeInstanceOf(ProviderNotFoundError);
    },
  );
});
