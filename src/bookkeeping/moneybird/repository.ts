import type { Knex } from 'knex';

/** An account's Moneybird connection (migration: moneybird_connections): its administration and sealed token. */
export interface MoneybirdConnectionRow {
  account_id: string;
  administration_id: string;
  token_encrypted: string;
  send_invoices: boolean | number;
  created_at: string;
  updated_at: string;
}

/** Which contact in which administration stands for one customer of an account. */
export interface MoneybirdContactKey {
  account_id: string;
  customer_id: string;
  administration_id: string;
}

const connections = (db: Knex) => db<MoneybirdConnectionRow>('moneybird_connections');
const contacts = (db: Knex) => db('moneybird_contacts');

/**
 * The Moneybird adapter's own tables, the one place that queries them: the accounts' connections and the contacts
 * made of their customers. The adapter folder owns them, as a payment provider's folder owns its tables.
 */
export const moneybirdRepository = {
  connectionOf: (db: Knex, accountId: string): Promise<MoneybirdConnectionRow | undefined> =>
    connections(db).where({ account_id: accountId }).first(),

  /** Stores the account's connection, replacing the one it had (call inside the transaction that names the system). */
  saveConnection: async (
    trx: Knex,
    accountId: string,
    connection: Pick<MoneybirdConnectionRow, 'administration_id' | 'token_encrypted' | 'send_invoices'>,
    now: string,
  ): Promise<void> => {
    const row = { ...connection, updated_at: now };
    const updated = await connections(trx).where({ account_id: accountId }).update(row);
    if (!updated) await connections(trx).insert({ ...row, account_id: accountId, created_at: now });
  },

  deleteConnection: (db: Knex, accountId: string) => connections(db).where({ account_id: accountId }).delete(),

  /** The contact remembered for the customer in the administration, if one was made or found before. */
  contactIdOf: async (db: Knex, key: MoneybirdContactKey): Promise<string | undefined> =>
    (await contacts(db).where(key).first<{ contact_id: string } | undefined>('contact_id'))?.contact_id,

  /** Remembers the customer's contact; the first one remembered stays (two runs may find it at once). */
  rememberContact: async (db: Knex, key: MoneybirdContactKey, contactId: string, now: string): Promise<void> => {
    await contacts(db)
      .insert({ ...key, contact_id: contactId, created_at: now })
      .onConflict(['account_id', 'customer_id', 'administration_id'])
      .ignore();
  },
};
