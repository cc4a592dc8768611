import { TEST_DATABASES } from '../support/databases';
import { billAsOf } from '../support/billing';
import { useTestApp } from '../support/testApp';

const csv = [
  'reference,signature_date,iban,account_holder,first_name,last_name,email,amount,interval,day,times,times_done,start',
  'BILL-1,2025-03-14,NL91ABNA0417164300,A. de Vries,Anna,de Vries,anna@example.nl,12.50,month,5,12,3,2026-12-01',
  'BILL-2,2025-03-14,NL91ABNA0417164300,B. Jansen,Bob,Jansen,bob@example.nl,20.00,month,31,4,3,2026-11-25',
].join('\n');

/** An imported subscription is billed by the service from the source's count on: charge 4 of 12 first. */
describe.each(TEST_DATABASES)('billing imported subscriptions on %s', (kind) => {
  const t = useTestApp(kind);

  it('When billing runs on the next dates, then each period is charged once, numbered on, and the last one completes it', async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    const { token, accountId } = await t.newAccount();
    const imported = await t.as(token).post('/api/v2/imports', { source: 'csv', csv });
    expect(imported.body.counts).toMatchObject({ created: 2, failed: 0 });
    const [monthly, lastOne] = imported.body.rows.data.map((row: { subscription_id: string }) => row.subscription_id as string);
    const show = async (id: string) => (await t.as(token).get(`/api/v2/subscriptions/${id}`)).body;
    expect(await show(lastOne)).toMatchObject({ next_payment_at: '2026-11-30', rules: [{ day: 31, times: 4, times_done: 3 }] });

    await billAsOf(t.ctx, '2026-11-30');
    await billAsOf(t.ctx, '2026-11-30'); // a second pass charges nothing twice
    expect(await show(lastOne)).toMatchObject({ status: 'completed', rules: [{ times: 4, times_done: 4 }] });
    expect(await show(monthly)).toMatchObject({ status: 'active', next_payment_at: '2026-12-05', rules: [{ times_done: 3 }] });

    await billAsOf(t.ctx, '2026-12-05');
    expect(await show(monthly)).toMatchObject({ status: 'active', next_payment_at: '2027-01-05', rules: [{ times: 12, times_done: 4 }] });
    const charges = await t.ctx
      .db('subscription_charges')
      .where({ account_id: accountId })
      .orderBy('due_date')
      .select('subscription_id', 'charge_number', 'due_date', 'amount');
    expect(
      charges.map((charge) => [
        charge.subscription_id,
        Number(charge.charge_number),
        String(charge.due_date).slice(0, 10),
        Number(charge.amount),
      ]),
    ).toEqual([
      [lastOne, 4, '2026-11-30', 2000],
      [monthly, 4, '2026-12-05', 1250],
    ]);
    expect(await t.ctx.db('payments').where({ account_id: accountId }).count({ n: '*' })).toEqual([{ n: 2 }]);
  });
});
