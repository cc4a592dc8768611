import type { Knex } from 'knex';
import type { Clock } from '../../time';
import { toDbDateTime } from '../../time';
import { AccountError, requireAccount } from '../accounts/service';

/** An account's invoicing: numbering, default VAT, OSS, the mail when paid, the seller's details. */
export interface InvoiceSettingsRow {
  account_id: string;
  prefix: string;
  next_number: number;
  default_vat: string | null;
  oss: boolean | number;
  /** Mail each invoice and credit note to the customer, its PDF attached. */
  mail_when_paid: boolean | number;
  /** Invoice paid payment links (a subscription's charges always are). */
  invoice_links: boolean | number;
  /** Invoice paid store orders, with the lines the store invoiced. */
  invoice_orders: boolean | number;
  seller_address: string | null;
  seller_postal_code: string | null;
  seller_city: string | null;
  seller_country: string | null;
  seller_vat_number: string | null;
  /** The seller's Chamber of Commerce (KvK) number; migration 055. */
  seller_coc_number: string | null;
  updated_at: string;
}

export type InvoiceSettingsChanges = Partial<Omit<InvoiceSettingsRow, 'account_id' | 'updated_at'>>;

const table = (db: Knex) => db<InvoiceSettingsRow>('invoice_settings');

export type DocumentKind = 'invoice' | 'credit_note';
const documentNumbers = (db: Knex) => db('document_numbers');

/** The defaults of an account that never set its invoicing: no prefix, numbers from 1, no VAT. */
export function defaultInvoiceSettings(accountId: string, now: string): InvoiceSettingsRow {
  return {
    account_id: accountId,
    prefix: '',
    next_number: 1,
    default_vat: null,
    oss: false,
    mail_when_paid: false,
    invoice_links: false,
    invoice_orders: false,
    seller_address: null,
    seller_postal_code: null,
    seller_city: null,
    seller_country: null,
    seller_vat_number: null,
    seller_coc_number: null,
    updated_at: now,
  };
}

export const invoiceSettingsRepository = {
  find: (db: Knex, accountId: string): Promise<InvoiceSettingsRow | undefined> => table(db).where({ account_id: accountId }).first(),

  /** The account's settings, the defaults when it never set them (nothing written: no lock taken). */
  settingsOf: async (db: Knex, accountId: string, now: string): Promise<InvoiceSettingsRow> =>
    (await table(db).where({ account_id: accountId }).first()) ?? defaultInvoiceSettings(accountId, now),

  /** The account's row, made with the defaults when missing (a second maker's insert is ignored). */
  async ensure(db: Knex, accountId: string, now: string): Promise<void> {
    await table(db).insert(defaultInvoiceSettings(accountId, now)).onConflict('account_id').ignore();
  },

  /**
   * The account's next document number (an invoice's or a credit note's), taken in the caller's
   * transaction: the counter row is updated in place first (the update holds its lock until the
   * transaction ends: a second biller waits), then read. A number some document holds already
   * (another series' number spelled the same: prefix `A` at 11 and `A1` at 1) is skipped; the one
   * taken is written to `document_numbers`, whose key makes it the series' only document of that
   * number. A rolled-back document rolls its number back with it.
   */
  async takeNumber(
    trx: Knex.Transaction,
    accountId: string,
    now: string,
    kind: DocumentKind = 'invoice',
  ): Promise<{ number: string; settings: InvoiceSettingsRow }> {
    for (;;) {
      // The update first: it takes the row's lock at once. An insert meeting the existing row would
      // take a shared lock first, and two billers each holding one would deadlock on the update.
      if (!(await table(trx).where({ account_id: accountId }).increment('next_number', 1))) {
        await invoiceSettingsRepository.ensure(trx, accountId, now);
        await table(trx).where({ account_id: accountId }).increment('next_number', 1);
      }
      const settings = await table(trx).where({ account_id: accountId }).first();
      if (!settings) throw new Error('invoice settings vanished');
      const sequence = Number(settings.next_number) - 1;
      const number = `${settings.prefix}${sequence}`;
      if (await documentNumbers(trx).where({ account_id: accountId, number }).first('number')) continue;
      await documentNumbers(trx).insert({ account_id: accountId, number, series: settings.prefix, sequence, kind, created_at: now });
      return { number, settings };
    }
  },

  /** The highest place taken in a series (invoices and credit notes together), 0 when none. */
  async highestInSeries(db: Knex, accountId: string, series: string): Promise<number> {
    const row = await documentNumbers(db).where({ account_id: accountId, series }).max({ highest: 'sequence' }).first();
    return Number((row as { highest?: number | string | null } | undefined)?.highest ?? 0);
  },
};

/** `cli accounts set-invoicing`: the account's invoicing, made with the defaults first when missing. */
export async function setInvoiceSettings(
  db: Knex,
  clock: Clock,
  accountName: string,
  changes: InvoiceSettingsChanges,
): Promise<InvoiceSettingsRow> {
  const account = await requireAccount(db, accountName);
  const now = toDbDateTime(clock.now());
  await invoiceSettingsRepository.ensure(db, account.id, now);
  await db.transaction(async (trx) => {
    // The row's lock first: no document takes a number between the check and the change.
    await table(trx).where({ account_id: account.id }).update({ updated_at: now });
    if (changes.prefix !== undefined || changes.next_number !== undefined) await refuseIssuedNumber(trx, account.id, changes);
    const before = await invoiceSettingsRepository.find(trx, account.id);
    if (Object.keys(changes).length)
      await table(trx)
        .where({ account_id: account.id })
        .update({ ...changes, updated_at: now });
    if (before) await recordNumberMove(trx, before, changes, now);
  });
  const row = await invoiceSettingsRepository.find(db, account.id);
  if (!row) throw new Error('invoice settings vanished');
  return row;
}

/**
 * A next number at or below one already issued in its series (invoices and credit notes together)
 * would number a second document the same, or leave the books out of order: refused.
 */
async function refuseIssuedNumber(db: Knex, accountId: string, changes: InvoiceSettingsChanges): Promise<void> {
  const current = await invoiceSettingsRepository.find(db, accountId);
  const prefix = changes.prefix ?? current?.prefix ?? '';
  const next = Number(changes.next_number ?? current?.next_number ?? 1);
  const highest = await invoiceSettingsRepository.highestInSeries(db, accountId, prefix);
  if (next <= highest)
    throw new AccountError(`${prefix}${highest} is issued already: the next number of series "${prefix}" must be above ${highest}`);
}

/**
 * A series' next number moved up by the merchant (a new prefix starts its series at 1): recorded, so that the ledger
 * audit reports the numbers skipped as moved by the merchant rather than lost.
 */
async function recordNumberMove(db: Knex, before: InvoiceSettingsRow, changes: InvoiceSettingsChanges, now: string): Promise<void> {
  const prefix = changes.prefix ?? before.prefix;
  const from = prefix === before.prefix ? Number(before.next_number) : 1;
  const to = Number(changes.next_number ?? before.next_number);
  if (to > from)
    await db('invoice_number_moves').insert({ account_id: before.account_id, prefix, from_number: from, to_number: to, moved_at: now });
}
