import { migrationSource } from '../../migrations';
import { seedCustomer, seedOrder } from '../support/seed';
import { TEST_DATABASES } from '../support/databases';
import { customersRepository } from '../../src/modules/customers/repository';
import { useTestApp } from '../support/testApp';

/**
 * Lists are numbered per account by the database (account_seq, kept by triggers with the totals), so
 * a page at any depth is a seek and a total is one key read. Whatever way rows arrive, the numbers
 * stay 1…n without gaps and the pages are what OFFSET over creation order would give.
 */
describe.each(TEST_DATABASES)('numbered lists on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  const numbers = async (accountId: string) =>
    (await t.ctx.db('customers').where({ account_id: accountId }).orderBy('seq', 'asc').select('account_seq')).map(
      (row: { account_seq: number | string }) => Number(row.account_seq),
    );
  const listed = async (token: string, page: number, perPage = 15) => {
    const res = await t.as(token).get(`/api/v2/customers?page=${page}&per_page=${perPage}`);
    expect(res.status).toBe(200);
    return res.body as { data: Array<{ id: string }>; meta: { total: number; last_page: number } };
  };
  const idsInCreationOrder = async (accountId: string) =>
    (await t.ctx.db('customers').where({ account_id: accountId }).orderBy('seq', 'asc').select('id')).map((row: { id: string }) => row.id);

  it(
    'When two accounts’ rows arrive interleaved, through the API and straight into the table, then each account’s pages are its rows ' +
      'in creation order at any depth, with its own total',
    async () => {
      const a = await t.newAccount();
      const b = await t.newAccount();
      for (let index = 0; index < 40; index += 1) {
        if (index % 4 === 0)
          await t
            .as(a.token)
            .post('/api/v2/customers', { first_name: 'Api', last_name: String(index), email: `api${index}@example.nl` })
            .expect(201);
        else await seedCustomer(t.ctx.db, a.accountId, { last_name: String(index) });
        if (index % 8 === 0) await seedCustomer(t.ctx.db, b.accountId);
      }
      expect(await numbers(a.accountId)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
      expect(await numbers(b.accountId)).toEqual([1, 2, 3, 4, 5]);

      const ids = await idsInCreationOrder(a.accountId);
      for (const [page, perPage] of [
        [1, 15],
        [2, 15],
        [3, 15],
        [4, 15],
        [7, 6],
        [40, 1],
      ] as const) {
        const body = await listed(a.token, page, perPage);
        expect(body.data.map((customer) => customer.id)).toEqual(ids.slice((page - 1) * perPage, page * perPage));
        expect(body.meta.total).toBe(40);
      }
      expect((await listed(b.token, 1)).meta.total).toBe(5);
    },
  );

  it('When 24 customers are created at once, then each gets its own number, 1 to 24, and none is lost to a lock', async () => {
    const { accountId, token } = await t.newAccount();
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        t.as(token).post('/api/v2/customers', { first_name: 'At', last_name: 'Once', email: `once${index}@example.nl` }),
      ),
    );
    expect(created.map((res) => res.status)).toEqual(Array(24).fill(201));
    expect([...(await numbers(accountId))].sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, index) => index + 1));
    expect((await listed(token, 1)).meta.total).toBe(24);
  });

  it('When an insert is rolled back, then it is neither counted nor numbered: the next row takes the next number', async () => {
    const { accountId, token } = await t.newAccount();
    await seedCustomer(t.ctx.db, accountId);
    await t.ctx.db
      .transaction(async (trx) => {
        await seedCustomer(trx, accountId);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await seedCustomer(t.ctx.db, accountId);
    expect(await numbers(accountId)).toEqual([1, 2]);
    expect((await listed(token, 1)).meta.total).toBe(2);
  });

  it('When a customer the provider refused is removed, then the rows after it move up and the pages stay contiguous', async () => {
    const { accountId, token } = await t.newAccount();
    for (let index = 0; index < 5; index += 1) await seedCustomer(t.ctx.db, accountId);
    const refused = await seedCustomer(t.ctx.db, accountId, { provider_customer_id: null });
    for (let index = 0; index < 5; index += 1) await seedCustomer(t.ctx.db, accountId);
    await customersRepository.deleteUnconfirmed(t.ctx.db, accountId, refused.id);
    expect(await numbers(accountId)).toEqual(Array.from({ length: 10 }, (_, index) => index + 1));
    const ids = await idsInCreationOrder(accountId);
    expect((await listed(token, 2, 4)).data.map((customer) => customer.id)).toEqual(ids.slice(4, 8));
    expect((await listed(token, 1)).meta.total).toBe(10);
    await seedCustomer(t.ctx.db, accountId);
    expect((await numbers(accountId)).at(-1)).toBe(11);
  });

  it('When the numbering migration meets rows that exist already, then it numbers them in creation order and counts them', async () => {
    const { accountId, token } = await t.newAccount();
    const other = await t.newAccount();
    await t.ctx.db.migrate.down({ migrationSource }); // back to before migration 022
    for (let index = 0; index < 7; index += 1) {
      await seedCustomer(t.ctx.db, accountId);
      await seedCustomer(t.ctx.db, other.accountId);
    }
    await seedOrder(t.ctx.db, accountId, []);
    await t.ctx.db.migrate.latest({ migrationSource });
    expect(await numbers(accountId)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await numbers(other.accountId)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await listed(token, 1)).meta.total).toBe(7);
    expect((await t.as(token).get('/api/v2/orders')).body.meta.total).toBe(1);
    await seedCustomer(t.ctx.db, accountId);
    expect((await numbers(accountId)).at(-1)).toBe(8);
  });
});
