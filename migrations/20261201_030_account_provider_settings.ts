import type { Knex } from 'knex';

/**
 * An account's provider settings belong to whichever provider it chose, not to one provider's
 * columns: `provider` names the adapter (null: the environment's default), its credentials are
 * sealed by that adapter, its profile id is the one the account's payments are made on, and any
 * further settings are the adapter's JSON. The settings stored so far were all Mollie's and are
 * carried over: the sealed key as it is (same APP_KEY encryption), the API URL as `{"apiUrl": …}`.
 */

/**
 * Outside a transaction: SQLite drops a column by copying the table, and other tables refer to
 * accounts; knex can switch the foreign-key check off for that copy only outside a transaction
 * (MySQL commits each ALTER by itself anyway). Every step can run again after a failed one.
 */
export const config = { transaction: false };

interface OldSettings {
  id: string;
  mollie_api_key_encrypted: string | null;
  mollie_profile_id: string | null;
  mollie_api_url: string | null;
}

interface NewSettings {
  id: string;
  provider: string | null;
  provider_credentials_sealed: string | null;
  provider_profile_id: string | null;
  provider_options: string | null;
}

const apiUrlOf = (options: string | null): string | null => {
  if (!options) return null;
  const parsed: unknown = JSON.parse(options);
  const apiUrl = typeof parsed === 'object' && parsed !== null ? (parsed as { apiUrl?: unknown }).apiUrl : null;
  return typeof apiUrl === 'string' ? apiUrl : null;
};

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.string('provider', 32).nullable();
    t.text('provider_credentials_sealed').nullable();
    t.string('provider_profile_id', 64).nullable();
    t.text('provider_options').nullable();
  });
  const accounts = await db('accounts')
    .where((q) => q.whereNotNull('mollie_api_key_encrypted').orWhereNotNull('mollie_profile_id').orWhereNotNull('mollie_api_url'))
    .select<OldSettings[]>('id', 'mollie_api_key_encrypted', 'mollie_profile_id', 'mollie_api_url');
  for (const account of accounts) {
    await db('accounts')
      .where({ id: account.id })
      .update({
        provider: account.mollie_api_key_encrypted ? 'mollie' : null,
        provider_credentials_sealed: account.mollie_api_key_encrypted,
        provider_profile_id: account.mollie_profile_id,
        provider_options: account.mollie_api_url ? JSON.stringify({ apiUrl: account.mollie_api_url }) : null,
      });
  }
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumns('mollie_api_key_encrypted', 'mollie_profile_id', 'mollie_api_url');
  });
}

/** Only Mollie's settings have a place in the old columns; an account on another provider loses its settings. */
export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.text('mollie_api_key_encrypted').nullable();
    t.string('mollie_profile_id', 64).nullable();
    t.string('mollie_api_url', 255).nullable();
  });
  const accounts = await db('accounts')
    .where((q) => q.where('provider', 'mollie').orWhere((none) => none.whereNull('provider').whereNotNull('provider_profile_id')))
    .select<NewSettings[]>('id', 'provider', 'provider_credentials_sealed', 'provider_profile_id', 'provider_options');
  for (const account of accounts) {
    await db('accounts')
      .where({ id: account.id })
      .update({
        mollie_api_key_encrypted: account.provider_credentials_sealed,
        mollie_profile_id: account.provider_profile_id,
        mollie_api_url: apiUrlOf(account.provider_options),
      });
  }
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumns('provider', 'provider_credentials_sealed', 'provider_profile_id', 'provider_options');
  });
}
