import { readRows } from '../../src/db/hotReads';
import { seedCustomer } from '../support/seed';
import { TEST_DATABASES } from '../support/databases';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * The reads of every API request (the token, a list page, its total) run on SQLite on a read
 * connection of their own, outside knex. They must see exactly what is committed: never a running
 * transaction's rows, and never wait for it.
 */
describe.each(TEST_DATABASES)('hot reads on %s', (kind) => {
  let t: TestApp;
  let closed: boolean;
  beforeEach(async () => {
    t = await createTestApp(kind);
    closed = false;
  });
  afterEach(() => (closed ? undefined : t.close()));

  /** Settles with the answer, or with 'waited' when the request is still waiting after `ms`. */
  const within = async <T>(promise: Promise<T>, ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'waited'>((resolve) => {
      timer = setTimeout(() => resolve('waited'), ms);
    });
    try {
      return await Promise.race([promise, waited]);
    } finally {
      clearTimeout(timer);
    }
  };

  it(
    'When a write transaction is open, then a list is answered at once with only the committed rows, and shows the new row once it ' +
      'commits',
    async () => {
      const { accountId, token } = await t.newAccount();
      const committed = await seedCustomer(t.ctx.db, accountId, { last_name: 'Committed' });
      // The token's first use records it (a write, at most once a minute); that is not what is tested here.
      await t.as(token).get('/api/v2/customers').expect(200);
      let commit!: () => void;
      const released = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let inserted!: () => void;
      const insertedInTransaction = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      const writing = t.ctx.db.transaction(async (trx) => {
        await seedCustomer(trx, accountId, { last_name: 'Uncommitted' });
        inserted();
        await released;
      });
      await insertedInTransaction;

      // On SQLite the transaction holds knex's only connection: a list through knex would wait for it.
      const during = await within(t.as(token).get('/api/v2/customers'), 2_000);
      commit();
      await writing;
      expect(during).not.toBe('waited');
      if (during === 'waited') return;
      expect(during.status).toBe(200);
      expect((during.body as { data: Array<{ id: string }> }).data.map((customer) => customer.id)).toEqual([committed.id]);
      expect((during.body as { meta: { total: number } }).meta.total).toBe(1);

      const after = await t.as(token).get('/api/v2/customers').expect(200);
      expect((after.body as { data: Array<{ last_name: string }> }).data.map((customer) => customer.last_name)).toEqual([
        'Committed',
        'Uncommitted',
      ]);
      expect((after.body as { meta: { total: number } }).meta.total).toBe(2);
    },
  );

  it('When a read runs inside a transaction, then it sees that transaction’s own rows', async () => {
    const { accountId } = await t.newAccount();
    let insertedId = '';
    let seen: string[] = [];
    await t.ctx.db.transaction(async (trx) => {
      insertedId = (await seedCustomer(trx, accountId)).id;
      seen = (await readRows<{ id: string }>(trx, 'select `id` from `customers` where `account_id` = ?', [accountId])).map((row) => row.id);
    });
    expect(seen).toEqual([insertedId]);
  });

  it('When another connection adds a column, then `select *` reads show it', async () => {
    const { accountId } = await t.newAccount();
    await seedCustomer(t.ctx.db, accountId);
    const read = () => readRows<Record<string, unknown>>(t.ctx.db, 'select * from `customers` where `account_id` = ?', [accountId]);
    expect(await read()).toEqual([expect.not.objectContaining({ nickname: expect.anything() })]);
    await t.ctx.db.schema.alterTable('customers', (table) => {
      table.string('nickname').nullable().defaultTo('Annie');
    });
    const [row] = await read();
    expect(row).toEqual(expect.objectContaining({ first_name: 'Anna', nickname: 'Annie' }));
  });

  it('When the database is closed, then a read fails instead of opening a connection again', async () => {
    const { accountId } = await t.newAccount();
    const db = t.ctx.db;
    await t.close();
    closed = true;
    await expect(readRows(db, 'select `id` from `customers` where `account_id` = ?', [accountId])).rejects.toThrow();
  });
});
