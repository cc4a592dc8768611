import { migrationSource } from '../../migrations';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const name = '20261215_056_refunds_the_books_trust';

describe.each(TEST_DATABASES)("the migration keeping refunds' order, references and inclusive credits, on %s", (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it is undone and run again, then its columns go and come back', async () => {
    const db = t.ctx.db;
    const columns: Array<[string, string]> = [
      ['payments', 'refunds_made'],
      ['refunds', 'sequence'],
      ['refunds', 'reference'],
      ['bookkeeping_outbox', 'credit_prices_incl_tax'],
    ];
    await db.migrate.down({ migrationSource, name });
    for (const [table, column] of columns)
      expect([table, column, await db.schema.hasColumn(table, column)]).toEqual([table, column, false]);
    await db.migrate.up({ migrationSource, name });
    for (const [table, column] of columns) expect([table, column, await db.schema.hasColumn(table, column)]).toEqual([table, column, true]);
  });
});
