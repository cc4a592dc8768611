import { registerBookkeepingAdapterForTests } from '../../src/bookkeeping';
import type { BookkeepingAdapter } from '../../src/bookkeeping/adapter';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { cli } from './runInMemory';

/*
 * A system stores its connection and the CLI names it on the account, in one transaction the CLI runs
 * (`saveConnection`): a system is an adapter and writes no module's table. A system of the tests whose store fails
 * shows the first half; test/bookkeeping/moneybird-connect.test.ts the other (the naming fails, nothing is stored).
 */

const failingStore: BookkeepingAdapter = {
  name: 'lockedbook',
  displayName: 'Lockedbook',
  open: () => Promise.reject(new Error('not used')),
  accountSettings: {
    options: [],
    async connect(_ctx, input) {
      await input.account();
      await input.saveConnection(() => Promise.reject(new Error('The ledger is locked')));
      return 'not reached';
    },
  },
  disconnect: () => Promise.resolve(),
};

const unregister = registerBookkeepingAdapterForTests(failingStore);
afterAll(() => unregister());

describe.each(TEST_DATABASES)('set-bookkeeping stores a connection and names the system at once, on %s', (kind) => {
  const t = useTestApp(kind);

  const bookkeepingOf = async (name: string) =>
    (await t.ctx.db('accounts').where({ name }).first<{ bookkeeping_system: string | null }>('bookkeeping_system'))?.bookkeeping_system;

  it("When the system's connection cannot be stored, then the account keeps the system it named and the error is shown", async () => {
    const name = `Locked Shop ${kind}`;
    await t.newAccount(name);
    expect((await cli(t.ctx, 'accounts', 'set-bookkeeping', '--account', name, '--system', 'exact')).code).toBe(0);

    const result = await cli(t.ctx, 'accounts', 'set-bookkeeping', 'lockedbook', '--account', name);
    expect(result.code).toBe(1);
    expect(result.err.join('\n')).toContain('The ledger is locked');
    expect(await bookkeepingOf(name)).toBe('exact');
  });
});
