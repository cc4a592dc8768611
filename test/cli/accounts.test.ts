import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { cli } from './runInMemory';

describe.each(TEST_DATABASES)('cli accounts on %s', (kind) => {
  const t = useTestApp(kind);

  const bookkeepingOf = async (name: string) =>
    (await t.ctx.db('accounts').where({ name }).first<{ bookkeeping_system: string | null }>('bookkeeping_system'))?.bookkeeping_system;

  it('When accounts exist, then `accounts list` prints one line per account with id, bookkeeping system and name', async () => {
    const shop = await t.newAccount('Zeeuwse Bakker');
    const other = await t.newAccount('Alpha Shop');
    const result = await cli(t.ctx, 'accounts', 'list');
    expect(result.code).toBe(0);
    expect(result.out).toEqual(
      expect.arrayContaining([`${shop.accountId}  bookkeeping none  Zeeuwse Bakker`, `${other.accountId}  bookkeeping none  Alpha Shop`]),
    );
    expect(result.out.indexOf(`${other.accountId}  bookkeeping none  Alpha Shop`)).toBeLessThan(
      result.out.indexOf(`${shop.accountId}  bookkeeping none  Zeeuwse Bakker`),
    );
  });

  it('When --system is given, then the account is connected to it; --none removes it again', async () => {
    const { accountId } = await t.newAccount('Books Shop');
    const set = await cli(t.ctx, 'accounts', 'set-bookkeeping', '--account', 'Books Shop', '--system', 'exact');
    expect(set).toMatchObject({ code: 0, err: [] });
    expect(await bookkeepingOf('Books Shop')).toBe('exact');
    expect((await cli(t.ctx, 'accounts', 'list')).out).toContain(`${accountId}  bookkeeping exact  Books Shop`);

    const cleared = await cli(t.ctx, 'accounts', 'set-bookkeeping', '--account', 'Books Shop', '--none');
    expect(cleared).toEqual({ code: 0, out: ['Account "Books Shop" has no bookkeeping system'], err: [] });
    expect(await bookkeepingOf('Books Shop')).toBeNull();
  });

  describe('set-bookkeeping with bad arguments', () => {
    beforeAll(async () => {
      await t.newAccount('Wrong Args Shop');
    });

    it.each([
      [['--account', 'Wrong Args Shop'], 'error: Pass either a system (moneybird, or --system <name>) or --none'],
      [
        ['--account', 'Wrong Args Shop', '--system', 'x', '--none'],
        'error: Pass either a system (moneybird, or --system <name>) or --none',
      ],
      // Moneybird is connected with its administration and token (test/bookkeeping), not by name alone.
      [['--account', 'Wrong Args Shop', '--system', 'moneybird'], "error: Pass --administration <id>: the number in Moneybird's address"],
      [
        ['--account', 'Wrong Args Shop', '--system', 'x', '--token', '-'],
        'error: --administration, --token and --send-invoices go with moneybird only',
      ],
      [
        ['--account', 'Wrong Args Shop', '--system', 'not a name!'],
        'error: A bookkeeping system name is 1 to 64 letters, digits, dots, dashes or underscores',
      ],
      [['--account', 'Nobody', '--none'], 'error: No account named "Nobody"'],
    ])('When set-bookkeeping gets %p, then it prints one error line and exits with 1', async (args, message) => {
      expect(await cli(t.ctx, 'accounts', 'set-bookkeeping', ...args)).toEqual({ code: 1, out: [], err: [message] });
      expect(await bookkeepingOf('Wrong Args Shop')).toBeNull();
    });
  });
});
