import { isValidCreditorId } from '../../src/modules/accounts/creditorId';
import { portalSettingsOf } from '../../src/modules/accounts/portalSettings';
import { merchantProfileOf } from '../../src/modules/accounts/profile';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { cli } from './runInMemory';

describe('SEPA creditor identifiers', () => {
  it.each(['DE98ZZZ09999999999', 'NL69ZZZ123456780000', 'FR72ZZZ123456', 'NL69ABC123456780000'])(
    'When %s is checked, then its mod 97-10 check digits (business code left out) are right',
    (id) => expect(isValidCreditorId(id)).toBe(true),
  );

  it.each(['DE97ZZZ09999999999', 'NL00ZZZ123456780000', 'DE98ZZ', 'D198ZZZ09999999999', 'de98zzz09999999999'])(
    'When %s is checked, then it is refused',
    (id) => expect(isValidCreditorId(id)).toBe(false),
  );
});

describe.each(TEST_DATABASES)('cli accounts set-profile and set-portal on %s', (kind) => {
  const t = useTestApp(kind);

  it('When a contact e-mail and creditor id are set, then merchantProfileOf and `accounts show` give them; "" clears each', async () => {
    const { accountId } = await t.newAccount('Profile Shop');
    expect(await merchantProfileOf(t.ctx.db, accountId)).toEqual({ displayName: 'Profile Shop', contactEmail: null, creditorId: null });

    const set = await cli(
      t.ctx,
      ...['accounts', 'set-profile', '--account', 'Profile Shop', '--display-name', 'Koffieclub'],
      ...['--contact-email', 'hallo@koffieclub.nl', '--creditor-id', 'de98 zzz0 9999 9999 99'],
    );
    expect(set).toEqual({
      code: 0,
      out: [
        'Account "Profile Shop" shows "Koffieclub" to buyers',
        'Account "Profile Shop" shows contact e-mail hallo@koffieclub.nl',
        'Account "Profile Shop" names creditor id DE98ZZZ09999999999 in pre-notifications',
      ],
      err: [],
    });
    expect(await merchantProfileOf(t.ctx.db, accountId)).toEqual({
      displayName: 'Koffieclub',
      contactEmail: 'hallo@koffieclub.nl',
      creditorId: 'DE98ZZZ09999999999',
    });
    const shown = (await cli(t.ctx, 'accounts', 'show', '--account', 'Profile Shop')).out;
    expect(shown).toEqual(
      expect.arrayContaining([
        'display name:         Koffieclub',
        'contact e-mail:       hallo@koffieclub.nl',
        'creditor id:          DE98ZZZ09999999999',
        'portal allows:        pause, skip, cancel, change-method',
        'portal max pause:     92 days',
        'subscription mails:   service',
      ]),
    );

    // One option changes only its own part.
    expect((await cli(t.ctx, 'accounts', 'set-profile', '--account', 'Profile Shop', '--contact-email', '')).code).toBe(0);
    expect(await merchantProfileOf(t.ctx.db, accountId)).toEqual({
      displayName: 'Koffieclub',
      contactEmail: null,
      creditorId: 'DE98ZZZ09999999999',
    });
    expect((await cli(t.ctx, 'accounts', 'set-profile', '--account', 'Profile Shop', '--creditor-id', '', '--none')).code).toBe(0);
    expect(await merchantProfileOf(t.ctx.db, accountId)).toEqual({ displayName: 'Profile Shop', contactEmail: null, creditorId: null });
  });

  it.each([
    [['--contact-email', 'not-an-address'], 'error: The contact e-mail is not a valid e-mail address'],
    [['--creditor-id', 'DE97ZZZ09999999999'], expect.stringContaining('error: A SEPA creditor id is')],
    [['--creditor-id', 'NL69'], expect.stringContaining('error: A SEPA creditor id is')],
    [['--display-name', 'x', '--none'], 'error: Pass either --display-name <text> or --none'],
    [[], expect.stringContaining('error: Pass at least one of')],
  ])('When set-profile gets %p, then it refuses with one error line and changes nothing', async (args, message) => {
    const { accountId } = await t.newAccount('Strict Profile Shop');
    expect(await cli(t.ctx, 'accounts', 'set-profile', '--account', 'Strict Profile Shop', ...args)).toEqual({
      code: 1,
      out: [],
      err: [message],
    });
    expect(await merchantProfileOf(t.ctx.db, accountId)).toEqual({
      displayName: 'Strict Profile Shop',
      contactEmail: null,
      creditorId: null,
    });
  });

  it('When set-portal limits the actions and the pause, then portalSettingsOf says so; --allow none allows nothing', async () => {
    const { accountId } = await t.newAccount('Portal Shop');
    const defaults = await portalSettingsOf(t.ctx.db, accountId);
    expect([...defaults.allowed].sort()).toEqual(['cancel', 'change-method', 'pause', 'skip']);
    expect(defaults.maxPauseDays).toBe(92);

    expect(
      await cli(t.ctx, 'accounts', 'set-portal', '--account', 'Portal Shop', '--allow', 'skip, cancel', '--max-pause-days', '30'),
    ).toEqual({
      code: 0,
      out: ['Account "Portal Shop" lets customers: skip, cancel', 'Account "Portal Shop" allows pauses of at most 30 days'],
      err: [],
    });
    const limited = await portalSettingsOf(t.ctx.db, accountId);
    expect([...limited.allowed].sort()).toEqual(['cancel', 'skip']);
    expect(limited.maxPauseDays).toBe(30);

    expect((await cli(t.ctx, 'accounts', 'set-portal', '--account', 'Portal Shop', '--allow', 'none')).out).toEqual([
      'Account "Portal Shop" lets customers: nothing',
    ]);
    expect((await portalSettingsOf(t.ctx.db, accountId)).allowed.size).toBe(0);
    expect((await portalSettingsOf(t.ctx.db, accountId)).maxPauseDays).toBe(30);

    await cli(
      t.ctx,
      'accounts',
      'set-portal',
      '--account',
      'Portal Shop',
      '--allow',
      'pause,skip,cancel,change-method',
      '--max-pause-days',
      '92',
    );
    const all = await portalSettingsOf(t.ctx.db, accountId);
    expect(all.allowed.size).toBe(4);
    expect(all.maxPauseDays).toBe(92);
  });

  it.each([
    [['--allow', 'pause,refund'], 'error: --allow takes a comma-separated list of pause, skip, cancel, change-method, or none'],
    [['--allow', ''], 'error: --allow takes a comma-separated list of pause, skip, cancel, change-method, or none'],
    [['--max-pause-days', '0'], 'error: --max-pause-days is a whole number of days from 1 to 366'],
    [['--max-pause-days', '367'], 'error: --max-pause-days is a whole number of days from 1 to 366'],
    [['--max-pause-days', '2.5'], 'error: --max-pause-days is a whole number of days from 1 to 366'],
    [['--mails', 'nobody'], 'error: --mails is service or store'],
    [[], 'error: Pass --allow <actions>, --max-pause-days <n> and/or --mails <service|store>'],
  ])('When set-portal gets %p, then it refuses with one error line and changes nothing', async (args, message) => {
    const { accountId } = await t.newAccount('Strict Portal Shop');
    expect(await cli(t.ctx, 'accounts', 'set-portal', '--account', 'Strict Portal Shop', ...args)).toEqual({
      code: 1,
      out: [],
      err: [message],
    });
    const settings = await portalSettingsOf(t.ctx.db, accountId);
    expect([settings.allowed.size, settings.maxPauseDays]).toEqual([4, 92]);
  });
});
