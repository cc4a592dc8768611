import type { Knex } from 'knex';

/** A document number as its series (the prefix it was made with) and its place in it. */
function seriesOf(number: string, prefix: string): { series: string; sequence: number } | null {
  if (prefix && number.startsWith(prefix) && /^\d+$/.test(number.slice(prefix.length)))
    return { series: prefix, sequence: Number(number.slice(prefix.length)) };
  const match = /^(.*?)(\d+)$/.exec(number);
  return match ? { series: match[1] ?? '', sequence: Number(match[2]) } : null;
}

/**
 * Invoicing apart from recording money (issue 36). `document_numbers`: every number an invoice or a
 * credit note took, unique per account — one uniqueness over the series' documents, whichever table
 * holds them — with its series and place in it, so `set-invoicing` can refuse a next number at or
 * below one issued and numbering can skip a number already taken. `owed_invoices`: the invoice a paid
 * payment is owed, written in the transaction that records the payment's status; it is numbered and
 * issued apart (after that commit, and by the `issue-owed-invoices` job with retries), so a failure
 * to invoice never rolls back money recorded. `invoice_settings.seller_coc_number`: the seller's
 * Chamber of Commerce (KvK) number printed on its invoices.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('document_numbers', (t) => {
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('number', 64).notNullable();
    t.string('series', 32).notNullable();
    t.bigInteger('sequence').notNullable();
    t.string('kind', 16).notNullable(); // invoice | credit_note
    t.dateTime('created_at').notNullable();
    t.primary(['account_id', 'number']);
    t.index(['account_id', 'series', 'sequence']);
  });
  const prefixes = new Map<string, string>(
    (await db('invoice_settings').select('account_id', 'prefix')).map((row: { account_id: string; prefix: string }) => [
      row.account_id,
      row.prefix,
    ]),
  );
  for (const [table, kind] of [
    ['invoices', 'invoice'],
    ['credit_notes', 'credit_note'],
  ] as const) {
    const rows: Array<{ account_id: string; number: string; created_at: string }> = await db(table)
      .whereNotNull('number')
      .select('account_id', 'number', 'created_at');
    for (const row of rows) {
      const place = seriesOf(row.number, prefixes.get(row.account_id) ?? '');
      if (!place) continue;
      await db('document_numbers')
        .insert({ account_id: row.account_id, number: row.number, ...place, kind, created_at: row.created_at })
        .onConflict(['account_id', 'number'])
        .ignore();
    }
  }
  await db.schema.createTable('owed_invoices', (t) => {
    t.string('id', 40).primary(); // iow_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('payment_id', 40).notNullable();
    t.string('charge_id', 40).nullable(); // the charge whose period the payment paid; null: the payment's own invoice
    t.string('owed_key', 96).notNullable().unique(); // `<payment id>:<charge id>`: owed once
    t.string('status', 16).notNullable(); // owed | issued (an invoice exists, or none was due after all)
    t.integer('attempts').notNullable().defaultTo(0);
    t.dateTime('next_attempt_at').notNullable();
    t.string('last_error', 255).nullable();
    t.boolean('failure_reported').notNullable().defaultTo(false);
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['status', 'next_attempt_at']);
    t.index(['account_id', 'payment_id']);
  });
  await db.schema.alterTable('invoice_settings', (t) => {
    t.string('seller_coc_number', 32).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['invoice_settings', 'seller_coc_number']);
  await db.schema.dropTable('owed_invoices');
  await db.schema.dropTable('document_numbers');
}
