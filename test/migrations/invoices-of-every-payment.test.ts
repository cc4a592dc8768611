import { migrationSource } from '../../migrations';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { billAndSettle, invoicesOf } from '../support/invoices';

const name = '20261213_050_invoices_of_every_payment';

describe.each(TEST_DATABASES)('the migration invoicing every payment, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When it is undone and run again, then its columns go and return, invoices stay; with invoices of no charge it refuses', async () => {
    const db = t.ctx.db;
    const { token, accountId } = await t.newAccount();
    await subscribe(t, token);
    await billAndSettle(t, accountId, '2026-12-01');
    const [invoice] = await invoicesOf(t, accountId);

    await db.migrate.down({ migrationSource, name });
    for (const [table, column] of [
      ['invoices', 'link_id'],
      ['invoices', 'payment_key'],
      ['invoice_settings', 'invoice_orders'],
      ['orders', 'invoice_lines'],
      ['outgoing_mails', 'attachment'],
    ] as const) {
      expect(await db.schema.hasColumn(table, column)).toBe(false);
    }
    expect(await invoicesOf(t, accountId)).toEqual([
      expect.objectContaining({ id: invoice.id, charge_id: invoice.charge_id, number: '1' }),
    ]);

    await db.migrate.up({ migrationSource, name });
    expect(await invoicesOf(t, accountId)).toEqual([expect.objectContaining({ id: invoice.id, payment_key: null, link_id: null })]);
    await db('invoices').where({ id: invoice.id }).update({ charge_id: null, subscription_id: null, payment_key: invoice.payment_id });
    await expect(db.migrate.down({ migrationSource, name })).rejects.toThrow(/invoices of links, orders or repaid chargebacks exist/);
    expect(await db.schema.hasColumn('invoices', 'payment_key')).toBe(true);
  });
});
