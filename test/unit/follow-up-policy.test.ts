import { followUpTypeOf, needsNewMandate, nextStep, type FollowUpFacts } from '../../src/modules/follow-ups/policy';
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

/** A dead account or mandate is never charged again: a takeover link asks for a new mandate. */
describe('codes that say the account or mandate is gone', () => {
  it.each(['AC01', 'AC04', 'AC06', 'AC13', 'AG01', 'MD01', 'MD02', 'MD07', 'SL01', 'ac04'])(
    'When a charge failed with %s, then it is never retried, its type is link and its link asks for a new mandate',
    (code) => {
      for (const type of ['retry', 'link', 'both'] as const) {
        expect(nextStep(facts({ reasonCode: code }), settings({ type }))).toEqual({ stage: 'link', inDays: 1 });
        expect(nextStep(facts({ moment: 'retry failed', reasonCode: code }), settings({ type }))).toEqual({ stage: 'link', inDays: 1 });
        expect(followUpTypeOf('failure', settings({ type }), code)).toBe('link');
      }
      expect(needsNewMandate({ kind: 'failure', reason_code: code })).toBe(true);
    },
  );

  it('When the code says nothing of the account (AM04, MS02, card_expired), then the link is a one-off payment', () => {
    for (const code of ['AM04', 'MS02', 'card_expired', null]) expect(needsNewMandate({ kind: 'failure', reason_code: code })).toBe(false);
    expect(needsNewMandate({ kind: 'mandate', reason_code: null })).toBe(true);
    expect(needsNewMandate({ kind: 'chargeback', reason_code: 'MD06' })).toBe(false);
  });
});
