import type { Account } from '../../src/modules/accounts/account';
import { runImport } from '../../src/modules/imports/service';
import type { ImportCandidate, ImportSource } from '../../src/modules/imports/sources';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const IBAN = 'NL91ABNA0417164300';

/** A source as the provider and store sources will be: candidates on a customer and mandate the provider holds already. */
function sourceOf(candidates: ImportCandidate[]): ImportSource {
  return {
    name: 'mollie-subscriptions',
    async *candidates() {
      yield* candidates;
    },
  };
}

const subscription = {
  amount: 995,
  interval: 'month' as const,
  intervalAmount: 1,
  day: null,
  times: null,
  timesDone: 7,
  nextDate: '2026-12-10',
  description: 'Magazine',
};

describe.each(TEST_DATABASES)('runImport over a source of existing mandates, on %s', (kind) => {
  const t = useTestApp(kind);

  it('When candidates name a customer and mandate at the provider, then ours are recorded on them (none made there), once', async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    const { token, accountId } = await t.newAccount();
    const account = (await t.ctx.db('accounts').where({ id: accountId }).first()) as Account;
    const provider = await t.ctx.providers.forAccount(account);
    const customer = await provider.createCustomer(
      { name: 'Carla Visser', email: 'carla@example.nl', locale: null, reference: 'x-1' },
      'x-c1',
    );
    const mandateInput = { customerId: customer.id, consumerName: 'C. Visser', consumerAccount: IBAN, consumerBic: null };
    const valid = await provider.createMandate({ ...mandateInput, signatureDate: '2025-01-02', mandateReference: 'ELSEWHERE-1' }, 'x-m1');
    const revoked = await provider.createMandate({ ...mandateInput, signatureDate: '2025-01-02', mandateReference: 'ELSEWHERE-2' }, 'x-m2');
    await provider.revokeMandate(customer.id, revoked.id);
    const carla = { firstName: 'Carla', lastName: 'Visser', email: 'carla@example.nl', locale: null, providerCustomerId: customer.id };
    const candidates: ImportCandidate[] = [
      { sourceId: 'sub_valid', customer: carla, mandate: { kind: 'existing', providerMandateId: valid.id }, subscription },
      { sourceId: 'sub_revoked', customer: carla, mandate: { kind: 'existing', providerMandateId: revoked.id }, subscription },
      { sourceId: 'sub_other', customer: carla, mandate: null, subscription: null, skipReason: 'Paid with another method.' },
      { sourceId: 'sub_valid', customer: carla, mandate: { kind: 'existing', providerMandateId: valid.id }, subscription },
    ];
    const progress: number[] = [];

    const run = await runImport(t.ctx, account, sourceOf(candidates), {
      dryRun: false,
      onProgress: (counts) => progress.push(counts.total),
    });
    expect(progress).toEqual([1, 2, 3, 4]);
    const report = await t.as(token).get(`/api/v2/imports/${run.id}`);
    expect(report.body).toMatchObject({
      source: 'mollie-subscriptions',
      status: 'finished',
      counts: { total: 4, created: 1, skipped: 1, failed: 2 },
    });
    expect(report.body.rows.data).toMatchObject([
      {
        source_id: 'sub_valid',
        line: null,
        outcome: 'created',
        reason: `9.95 EUR every month, next 2026-12-10 (until cancelled); mandate ${valid.id}`,
      },
      { source_id: 'sub_revoked', outcome: 'failed', field: 'mandate', reason: 'The mandate is invalid at the provider.' },
      { source_id: 'sub_other', outcome: 'skipped', reason: 'Paid with another method.' },
      { source_id: 'sub_valid (#4)', outcome: 'failed', field: 'source_id', reason: 'The source gave this id twice.' },
    ]);
    const made = await t.as(token).get(`/api/v2/subscriptions/${report.body.rows.data[0].subscription_id}`);
    expect(made.body).toMatchObject({
      source: 'mollie-subscriptions',
      source_id: 'sub_valid',
      provider_mandate_id: valid.id,
      next_payment_at: '2026-12-10',
      rules: [{ day: 10, times: null, times_done: 7 }],
      customer: { provider_customer_id: customer.id, email: 'carla@example.nl' },
    });
    // Both rows share the one customer the provider holds; no mandate was made at the provider.
    expect(await t.ctx.db('customers').where({ account_id: accountId }).count({ n: '*' })).toEqual([{ n: 1 }]);
    expect(await t.ctx.db('sandbox_mandates').where({ account_id: accountId }).count({ n: '*' })).toEqual([{ n: 2 }]);

    const again = await runImport(t.ctx, account, sourceOf(candidates), { dryRun: true });
    const second = await t.as(token).get(`/api/v2/imports/${again.id}`);
    expect(second.body.rows.data.map((row: { outcome: string }) => row.outcome)).toEqual(['exists', 'failed', 'would_skip', 'failed']);
  });
});
