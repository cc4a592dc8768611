import type { Knex } from 'knex';
import type { MandateMethod, MandateStatus } from '../../providers/types';

export interface MandateRow {
  id: string; // the provider's mandate id (mdt_…)
  account_id: string;
  customer_id: string;
  method: MandateMethod;
  status: MandateStatus;
  consumer_name: string | null;
  consumer_account: string | null;
  consumer_bic: string | null;
  card_holder: string | null;
  card_number: string | null; // last digits only
  card_expiry_date: string | null; // Y-m-d
  card_label: string | null;
  card_fingerprint: string | null;
  /** The SEPA reference; null for a card mandate that a first payment made. */
  mandate_reference: string | null;
  /** Whether the client chose the reference; MySQL reads it back as 1/0. */
  custom_reference: boolean | number;
  signature_date: string | null; // Y-m-d
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

const table = (db: Knex) => db<MandateRow>('mandates');

export const mandatesRepository = {
  insert: (db: Knex, row: MandateRow) => table(db).insert(row),

  /**
   * The mandate holding a reference in the account, ignoring case: MySQL's collation compares
   * the unique key that way, so SQLite must answer the same.
   */
  findByReference: (db: Knex, accountId: string, reference: string) =>
    table(db).where('account_id', accountId).whereRaw('LOWER(mandate_reference) = ?', [reference.toLowerCase()]).first(),

  /** A mandate only when it belongs to this customer of this account. */
  findForCustomer: (db: Knex, accountId: string, customerId: string, id: string) =>
    table(db).where({ account_id: accountId, customer_id: customerId, id }).first(),
};
