import { nextStep, type FollowUpFacts } from '../../src/modules/follow-ups/policy';
import { DEFAULT_FOLLOW_UP_SETTINGS, type FollowUpSettings } from '../../src/modules/follow-ups/settings';

const facts = (over: Partial<FollowUpFacts>): FollowUpFacts => ({
  moment: 'opened',
  kind: 'failure',
  reasonCode: 'AM04',
  retriesDone: 0,
  ...over,
});
const settings = (over: Partial<FollowUpSettings>): FollowUpSettings => ({
  ...DEFAULT_FOLLOW_UP_SETTINGS,
  retryDays: 3,
  maxRetries: 2,
  ...over,
});

/** The follow-up policy, one table: each row of docs/follow-ups.md's rules as a case. */
describe('the follow-up policy', () => {
  it.each([
    ['a failed charge worth retrying, type both', facts({}), settings({}), { stage: 'retry', inDays: 3 }],
    ['a failed charge worth retrying, type link', facts({}), settings({ type: 'link' }), { stage: 'link', inDays: 1 }],
    ['a failed charge not worth retrying (AC04)', facts({ reasonCode: 'AC04' }), settings({}), { stage: 'link', inDays: 1 }],
    ['a chargeback', facts({ kind: 'chargeback', reasonCode: 'MD06' }), settings({}), { stage: 'link', inDays: 1 }],
    [
      'a charge made without a valid mandate',
      facts({ kind: 'mandate', reasonCode: 'mandate_invalid' }),
      settings({}),
      { stage: 'link', inDays: 1 },
    ],
    ['a double payment', facts({ kind: 'double_payment', reasonCode: 'double_payment' }), settings({}), { stage: 'refund' }],
    ['a failed retry with retries left', facts({ moment: 'retry failed', retriesDone: 1 }), settings({}), { stage: 'retry', inDays: 3 }],
    [
      'a failed retry, retries over, type both',
      facts({ moment: 'retry failed', retriesDone: 2 }),
      settings({}),
      { stage: 'link', inDays: 1 },
    ],
    [
      'a failed retry, retries over, type retry',
      facts({ moment: 'retry failed', retriesDone: 2 }),
      settings({ type: 'retry' }),
      { stage: 'give up' },
    ],
    [
      'a failed retry with a code no longer worth it, type retry',
      facts({ moment: 'retry failed', reasonCode: 'MD01', retriesDone: 1 }),
      settings({ type: 'retry' }),
      { stage: 'link', inDays: 1 },
    ],
    ['a retry that cannot be made', facts({ moment: 'retry impossible', retriesDone: 1 }), settings({}), { stage: 'link', inDays: 0 }],
  ])('When %s, then the next step is as the table says', (_case, given, account, expected) => {
    expect(nextStep(given, account)).toEqual(expected);
  });
});
