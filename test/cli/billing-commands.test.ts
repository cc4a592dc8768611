import { followUpSettingsOf } from '../../src/modules/follow-ups/settings';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { cli } from './runInMemory';

describe.each(TEST_DATABASES)('billing commands on %s', (kind) => {
  const t = useTestApp(kind);
  let accountId: string;
  const account = 'Billing CLI';

  beforeAll(async () => {
    ({ accountId } = await t.newAccount(account));
  });

  it('When follow-up settings are set, then they are stored and echoed; unset options keep their value', async () => {
    expect(await followUpSettingsOf(t.ctx.db, accountId)).toEqual({ type: 'both', maxRetries: 3, retryDays: 3, onFailure: 'pause' });
    const set = await cli(t.ctx, 'accounts', 'set-follow-ups', '--account', account, '--type', 'retry', '--max-retries', '2');
    expect(set).toEqual({
      code: 0,
      out: [`Account "${account}" follows up failed charges by retry: at most 2 retries, 3 days apart; on failure: pause`],
      err: [],
    });
    await cli(t.ctx, 'accounts', 'set-follow-ups', '--account', account, '--retry-days', '5', '--on-failure', 'keep');
    expect(await followUpSettingsOf(t.ctx.db, accountId)).toEqual({ type: 'retry', maxRetries: 2, retryDays: 5, onFailure: 'keep' });
  });

  it.each([
    [['--type', 'sms'], 'error: --type must be one of retry, link, both'],
    [['--max-retries', '4'], 'error: --max-retries must be a whole number from 1 to 3'],
    [['--max-retries', '0'], 'error: --max-retries must be a whole number from 1 to 3'],
    [['--retry-days', 'three'], 'error: --retry-days must be a whole number from 1 to 30'],
    [['--on-failure', 'delete'], 'error: --on-failure must be one of pause, cancel, keep'],
  ])('When set-follow-ups gets %j, then it says what is wrong and changes nothing', async (args, message) => {
    const before = await followUpSettingsOf(t.ctx.db, accountId);
    expect(await cli(t.ctx, 'accounts', 'set-follow-ups', '--account', account, ...args)).toEqual({ code: 1, out: [], err: [message] });
    expect(await followUpSettingsOf(t.ctx.db, accountId)).toEqual(before);
  });

  it('When the events endpoint is set or removed, then it is stored; a bad address is refused', async () => {
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', account, '--url', 'https://shop.example/events')).code).toBe(0);
    expect((await t.ctx.db('accounts').where({ id: accountId }).first()).events_url).toBe('https://shop.example/events');
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', account, '--url', 'ftp://shop.example')).err).toEqual([
      'error: --url must start with https:// or http://',
    ]);
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', account, '--url', 'not a url')).err).toEqual([
      'error: --url must be an absolute http(s) address',
    ]);
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', account)).err).toEqual(['error: Pass either --url <url> or --none']);
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', account, '--none')).code).toBe(0);
    expect((await t.ctx.db('accounts').where({ id: accountId }).first()).events_url).toBeNull();
  });

  it('When pre-notification days are set, then they are stored; out of range is refused', async () => {
    expect((await cli(t.ctx, 'accounts', 'set-pre-notification', '--account', account, '--days', '3')).out).toEqual([
      `Account "${account}" notifies customers 3 days before each direct debit`,
    ]);
    expect(Number((await t.ctx.db('accounts').where({ id: accountId }).first()).pre_notification_days)).toBe(3);
    expect((await cli(t.ctx, 'accounts', 'set-pre-notification', '--account', account, '--days', '15')).err).toEqual([
      'error: --days must be a whole number from 1 to 14',
    ]);
    expect((await cli(t.ctx, 'accounts', 'set-pre-notification', '--account', account, '--none')).code).toBe(0);
    expect((await t.ctx.db('accounts').where({ id: accountId }).first()).pre_notification_days).toBeNull();
  });

  it('When an unknown account is named, then it says so', async () => {
    const run = await cli(t.ctx, 'accounts', 'set-follow-ups', '--account', 'Nobody', '--type', 'link');
    expect(run.code).toBe(1);
    expect(run.err[0]).toMatch(/^error: .*Nobody/);
  });

  it('When billing or follow-ups run with a date that is not a day, then they refuse it; without --date they run as of today', async () => {
    expect(await cli(t.ctx, 'billing', 'run', '--date', '2026-02-30')).toEqual({
      code: 1,
      out: [],
      err: ['error: --date must be a date as YYYY-MM-DD, not "2026-02-30"'],
    });
    expect((await cli(t.ctx, 'follow-ups', 'run', '--date', 'tomorrow')).code).toBe(1);
    const today = await cli(t.ctx, 'billing', 'run');
    expect(today.out).toEqual([
      'billing 2026-11-21: 0 due, 0 charged, 0 skipped, 0 not charged (mandate), 0 failed; 0 cancelled, 0 resumed',
    ]);
  });

  it(
    'When billing is asked for a date after today, then it refuses, saying it would charge customers early; with --force it bills as ' +
      'of that date',
    async () => {
      const { token } = await t.newAccount();
      const { subscriptionId } = await subscribe(t, token); // first charge 2026-12-01; the clock reads 2026-11-21
      const chargeRows = () => t.ctx.db('subscription_charges').where({ subscription_id: subscriptionId });
      expect(await cli(t.ctx, 'billing', 'run', '--date', '2026-12-01')).toEqual({
        code: 1,
        out: [],
        err: [
          'error: --date 2026-12-01 is after today (2026-11-21 in Europe/Amsterdam): billing ahead of time charges customers early, ' +
            'before their charges are due; add --force to do it anyway',
        ],
      });
      expect(await chargeRows()).toHaveLength(0);
      const forced = await cli(t.ctx, 'billing', 'run', '--date', '2026-12-01', '--force');
      expect(forced).toMatchObject({ code: 0, err: [] });
      expect(forced.out[0]).toMatch(/^billing 2026-12-01: 1 due, 1 charged/);
      expect(await chargeRows()).toEqual([expect.objectContaining({ status: 'charged' })]);
    },
  );

  it('When it is already the next day in APP_TIMEZONE but not yet in UTC, then billing as of that day is not ahead of time', async () => {
    t.clock.set('2026-11-21T23:30:00Z'); // 00:30 on 22 November in Amsterdam
    try {
      expect(await cli(t.ctx, 'billing', 'run', '--date', '2026-11-22')).toMatchObject({ code: 0, err: [] });
      expect((await cli(t.ctx, 'billing', 'run', '--date', '2026-11-23')).err).toEqual([
        expect.stringMatching(/^error: --date 2026-11-23 is after today \(2026-11-22 in Europe\/Amsterdam\)/),
      ]);
    } finally {
      t.clock.set('2026-11-21T10:00:00Z');
    }
  });

  it('When jobs are listed, then billing shows its schedule in APP_TIMEZONE', async () => {
    const listed = await cli(t.ctx, 'jobs', 'list');
    expect(listed.out).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^bill {2}0 6 \* \* \* Europe\/Amsterdam {2}Charges every subscription/),
        expect.stringMatching(/^follow-ups /),
      ]),
    );
  });
});
