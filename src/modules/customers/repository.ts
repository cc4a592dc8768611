import type { Knex } from 'knex';
import { closeListGap, pageOf } from '../../db/paging';
import { tenantTable } from '../../db/tenantTable';
import type { Page, PageRequest } from '../../paging';

export interface CustomerRow {
  id: string;
  account_id: string;
  number: string | null;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  organization_name: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  vat_number: string | null;
  locale: string | null;
  provider_customer_id: string | null;
  /** While not confirmed at the provider: when the next attempt there may start (backoff, Retry-After). */
  next_attempt_at?: string | null;
  /** Attempts at the provider that did not confirm it (lost answers, rate limits). */
  create_attempts?: number;
  /** Its number in the account's list (set by the database); absent on a row about to be written. */
  account_seq?: number;
  created_at: string;
  updated_at: string;
}

const shared = tenantTable<CustomerRow>('customers');
const { table } = shared;

export const customersRepository = {
  ...shared,

  insert: (db: Knex, row: CustomerRow) => table(db).insert(row),

  /** Uses the (account_id, email) index. The address is compared as stored (MySQL's collation also ignores case). */
  pageWithEmail: (db: Knex, accountId: string, email: string, request: PageRequest): Promise<Page<CustomerRow>> =>
    pageOf<CustomerRow>(table(db).where({ account_id: accountId, email }), request),

  /**
   * The customers with this address in every account, at most `limit` (the portal's log-in by e-mail).
   * Case is ignored, as MySQL's collation does; on SQLite the index of migration 040 is NOCASE.
   */
  withEmailInAnyAccount: (db: Knex, email: string, limit: number): Promise<CustomerRow[]> =>
    (db.client.config.client === 'mysql2' ? table(db).where({ email }) : table(db).whereRaw('`email` = ? collate nocase', [email]))
      .orderBy('created_at')
      .limit(limit),

  findByProviderCustomerId: (db: Knex, accountId: string, providerCustomerId: string) =>
    table(db).where({ account_id: accountId, provider_customer_id: providerCustomerId }).first(),

  update: (db: Knex, accountId: string, id: string, changes: Partial<CustomerRow>) =>
    table(db).where({ account_id: accountId, id }).update(changes),

  /** Sets the provider's id on a row that has none yet; 0 when a concurrent resume set it first. */
  recordProviderCustomer: (db: Knex, accountId: string, id: string, providerCustomerId: string, now: string) =>
    table(db)
      .where({ account_id: accountId, id })
      .whereNull('provider_customer_id')
      .update({ provider_customer_id: providerCustomerId, updated_at: now }),

  /** Records an attempt that did not confirm the row at the provider, and when the next one may start. */
  keepUnconfirmed: (db: Knex, accountId: string, id: string, attempt: { attempts: number; nextAttemptAt: string; now: string }) =>
    table(db)
      .where({ account_id: accountId, id })
      .whereNull('provider_customer_id')
      .update({ create_attempts: attempt.attempts, next_attempt_at: attempt.nextAttemptAt, updated_at: attempt.now }),

  /**
   * Removes a row the provider certainly refused: only while it was never confirmed there. The rows
   * after it in the account's list move up one, in the same transaction, so the list stays numbered
   * without gaps (pages are seeks on that number).
   */
  deleteUnconfirmed: (db: Knex, accountId: string, id: string) =>
    db.transaction(async (trx) => {
      const row = await table(trx).where({ account_id: accountId, id }).whereNull('provider_customer_id').first('account_seq');
      if (!row) return;
      await table(trx).where({ account_id: accountId, id }).delete();
      await closeListGap(trx, 'customers', accountId, row.account_seq as number);
    }),

  /**
   * Rows not confirmed at the provider (an answer lost, a rate limit, a crash) whose next attempt is due, longest waiting first, across
   * accounts.
   */
  stalledCreations: (db: Knex, now: string, limit: number) =>
    table(db).whereNull('provider_customer_id').andWhere('next_attempt_at', '<=', now).orderBy('next_attempt_at').limit(limit),
};
