import fc from 'fast-check';
import { runBilling } from '../../src/modules/billing/run';
import { effectiveRuleDay, scheduledCharge, type SchedulePlan } from '../../src/modules/subscriptions/schedule';
import { daysAfter } from '../../src/time/calendar';
import { subscribe, type SubscriptionRuleBody } from '../support/billing';
import { useTestApp } from '../support/testApp';

const intervals = ['day', 'week', 'month', 'year'] as const;

const ruleBody = fc
  .record({
    interval: fc.constantFrom(...intervals),
    every: fc.integer({ min: 1, max: 3 }),
    day: fc.integer({ min: 0, max: 31 }),
    times: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    cents: fc.integer({ min: 100, max: 50_000 }).filter((cents) => cents % 100 !== 13 && cents % 100 !== 66), // sandbox failure amounts
  })
  .map(({ interval, every, day, times, cents }): SubscriptionRuleBody => ({
    amount: cents / 100,
    interval,
    interval_amount: every,
    day: interval === 'day' ? 0 : interval === 'week' ? day % 8 : day,
    ...(times === undefined ? {} : { times }),
  }));

/**
 * The property of the issue, through the real service: for any valid rules and any sequence of
 * billing dates (late, repeated, out of order), the charges made equal the schedule's charges up to
 * the latest date — none twice, none missed — and each has one payment at the provider.
 */
describe('property: billing runs on any dates make exactly the scheduled charges (sqlite)', () => {
  const t = useTestApp('sqlite');
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  it('For random rules and run dates, charge rows and provider payments match the schedule exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 200 }),
        fc.array(ruleBody, { minLength: 1, maxLength: 3 }),
        // Up to four months of runs: a daily rule then makes ~120 charges, enough to cross every boundary.
        fc.array(fc.integer({ min: -20, max: 120 }), { minLength: 1, maxLength: 5 }),
        async (startOffset, rules, runOffsets) => {
          const startDate = daysAfter('2026-11-21', startOffset);
          const { subscriptionId } = await subscribe(t, token, { startDate, rules });
          const runDates = runOffsets.map((offset) => daysAfter(startDate, offset));
          for (const date of runDates) await runBilling(t.ctx, date);

          const plan: SchedulePlan = {
            startDate,
            rules: rules.map((rule) => ({
              interval: rule.interval as (typeof intervals)[number],
              interval_amount: rule.interval_amount,
              day: effectiveRuleDay(rule.interval as (typeof intervals)[number], rule.day, startDate),
              amount: Math.round(rule.amount * 100),
              times: rule.times ?? null,
            })),
          };
          const latest = runDates.reduce((a, b) => (a > b ? a : b));
          const expected: Array<[number, string, number]> = [];
          for (let number = 1; number <= 400; number += 1) {
            const charge = scheduledCharge(plan, number);
            if (!charge || charge.date > latest) break;
            expected.push([charge.number, charge.date, charge.amount]);
          }
          const rows = await t.ctx
            .db('subscription_charges')
            .where({ account_id: accountId, subscription_id: subscriptionId })
            .orderBy('charge_number');
          expect(rows.map((row) => [row.charge_number, String(row.due_date).slice(0, 10), Number(row.amount)])).toEqual(expected);
          expect(rows.every((row) => row.status === 'charged')).toBe(true);
          const payments = await t.ctx.db('payments').where({ account_id: accountId, subscription_id: subscriptionId, purpose: 'charge' });
          expect(payments).toHaveLength(expected.length);
          expect(new Set(payments.map((payment) => payment.purpose_id)).size).toBe(expected.length);
          const atProvider = await t.ctx.db('sandbox_payments').whereIn(
            'id',
            payments.map((payment) => payment.provider_payment_id),
          );
          expect(atProvider).toHaveLength(expected.length);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
