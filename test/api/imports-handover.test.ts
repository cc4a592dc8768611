import type { Account } from '../../src/modules/accounts/account';
import { sendPreNotifications } from '../../src/modules/billing/preNotification';
import { runImport } from '../../src/modules/imports/service';
import { cli } from '../cli/runInMemory';
import type { HandOver, ImportCandidate, ImportSource } from '../../src/modules/imports/sources';
import { billAsOf } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const IBAN = 'NL91ABNA0417164300';

type Answer = HandOver | Error;

/** A source that goes on billing by itself until handed over; each run's hand-over answers what the test says. */
function billingSource(candidates: ImportCandidate[], answers: { next: Answer; calls: string[] }): ImportSource {
  return {
    name: 'mollie-subscriptions',
    async *candidates() {
      yield* candidates;
    },
    async handOver(_ctx, _account, _provider, candidate, subscription) {
      answers.calls.push(`${candidate.sourceId}:${subscription.id}`);
      if (answers.next instanceof Error) throw answers.next;
      return answers.next;
    },
  };
}

describe.each(TEST_DATABASES)("an import's hand-over from a source that bills by itself, on %s", (kind) => {
  const t = useTestApp(kind);

  it(
    'When the hand-over fails or waits, then ours is made but no notice is sent and billing charges none of it; ' +
      'when a later run hands it over, then billing charges it from its next date',
    async () => {
      t.clock.set('2026-11-21T10:00:00Z');
      const accountName = `Handover ${kind}`;
      const { token, accountId } = await t.newAccount(accountName);
      expect((await cli(t.ctx, 'accounts', 'set-pre-notification', '--account', accountName, '--days', '5')).code).toBe(0);
      const account = (await t.ctx.db('accounts').where({ id: accountId }).first()) as Account;
      const provider = await t.ctx.providers.forAccount(account);
      const customer = await provider.createCustomer(
        { name: 'Carla Visser', email: 'carla@example.nl', locale: null, reference: 'h-1' },
        'h-c1',
      );
      const mandate = await provider.createMandate(
        {
          customerId: customer.id,
          consumerName: 'C. Visser',
          consumerAccount: IBAN,
          consumerBic: null,
          signatureDate: '2025-01-02',
          mandateReference: 'ELSEWHERE-H',
        },
        'h-m1',
      );
      const candidate: ImportCandidate = {
        sourceId: 'sub_h1',
        customer: { firstName: 'Carla', lastName: 'Visser', email: 'carla@example.nl', locale: null, providerCustomerId: customer.id },
        mandate: { kind: 'existing', providerMandateId: mandate.id },
        subscription: {
          amount: 1250,
          interval: 'month',
          intervalAmount: 1,
          day: null,
          times: null,
          timesDone: 3,
          nextDate: '2026-12-10',
          description: 'Coffee',
        },
      };
      const answers: { next: Answer; calls: string[] } = { next: new Error('the source could not be reached'), calls: [] };
      const source = billingSource([candidate], answers);
      const rowsOf = async (importId: string) => (await t.as(token).get(`/api/v2/imports/${importId}`)).body.rows.data;
      const chargesOf = (subscriptionId: string) => t.ctx.db('payments').where({ account_id: accountId, subscription_id: subscriptionId });

      const first = await runImport(t.ctx, account, source, { dryRun: false });
      const [failed] = await rowsOf(first.id);
      expect(failed).toMatchObject({
        source_id: 'sub_h1',
        outcome: 'failed',
        field: 'handover',
        reason: 'Imported, but the source still bills it: the source could not be reached; run the import again to hand it over',
      });
      const subscriptionId = failed.subscription_id as string;
      expect(answers.calls).toEqual([`sub_h1:${subscriptionId}`]);
      // Made and holding the next date, but the source still bills it: no notice of it, and billing charges nothing of it.
      expect(await sendPreNotifications(t.ctx, '2026-12-05')).toBe(0);
      await billAsOf(t.ctx, '2026-12-10');
      expect(await chargesOf(subscriptionId)).toHaveLength(0);
      expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({
        status: 'active',
        next_payment_at: '2026-12-10',
      });

      answers.next = { done: false, note: 'the source charges it today; ours takes the next period' };
      const waiting = await runImport(t.ctx, account, source, { dryRun: false });
      expect(await rowsOf(waiting.id)).toMatchObject([
        {
          outcome: 'exists',
          subscription_id: subscriptionId,
          reason: 'Imported before; hand-over waits: the source charges it today; ours takes the next period',
        },
      ]);
      const dry = await runImport(t.ctx, account, source, { dryRun: true });
      expect(await rowsOf(dry.id)).toMatchObject([
        { outcome: 'exists', reason: 'Imported before; the source still bills it: the run hands it over.' },
      ]);
      expect(answers.calls).toHaveLength(2); // a dry run asks the source nothing
      await billAsOf(t.ctx, '2026-12-10');
      expect(await chargesOf(subscriptionId)).toHaveLength(0);

      answers.next = { done: true, note: 'cancelled at the source' };
      const handed = await runImport(t.ctx, account, source, { dryRun: false });
      expect(await rowsOf(handed.id)).toMatchObject([{ outcome: 'exists', reason: 'Imported before; cancelled at the source' }]);
      expect(await sendPreNotifications(t.ctx, '2026-12-05')).toBe(1);
      await billAsOf(t.ctx, '2026-12-10');
      expect(await chargesOf(subscriptionId)).toMatchObject([{ amount: 1250, sequence_type: 'recurring' }]);

      // Handed over: a later run asks the source nothing more, and billing goes on as for any subscription.
      const after = await runImport(t.ctx, account, source, { dryRun: false });
      expect(await rowsOf(after.id)).toMatchObject([{ outcome: 'exists', reason: 'Imported before.' }]);
      expect(answers.calls).toHaveLength(3);
      await billAsOf(t.ctx, '2026-12-10');
      expect(await chargesOf(subscriptionId)).toHaveLength(1);
    },
  );
});
