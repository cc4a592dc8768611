import { migrationSource } from '../../migrations';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { billAndSettle, invoicesOf } from '../support/invoices';

const name = '20261215_055_invoices_owed_and_numbered_apart';

describe.each(TEST_DATABASES)('the migration owing invoices and keying document numbers, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it is undone and run again, then its tables go and return, holding the numbers invoices already have', async () => {
    const db = t.ctx.db;
    const accountName = `Migrated ${Math.random().toString(36).slice(2, 8)}`;
    const { token, accountId } = await t.newAccount(accountName);
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, '--prefix', '2026-', '--next', '7')).code).toBe(0);
    await subscribe(t, token);
    await billAndSettle(t, accountId, '2026-12-01');

    await db.migrate.down({ migrationSource, name });
    expect(await db.schema.hasTable('owed_invoices')).toBe(false);
    expect(await db.schema.hasTable('document_numbers')).toBe(false);
    expect(await db.schema.hasColumn('invoice_settings', 'seller_coc_number')).toBe(false);
    expect((await invoicesOf(t, accountId)).map((invoice) => invoice.number)).toEqual(['2026-7']);

    await db.migrate.up({ migrationSource, name });
    expect(await db('document_numbers').where({ account_id: accountId }).select('number', 'series', 'sequence', 'kind')).toEqual([
      { number: '2026-7', series: '2026-', sequence: 7, kind: 'invoice' },
    ]);
    const refused = await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, '--next', '7');
    expect(refused.code).toBe(1);
  });
});
