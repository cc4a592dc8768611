import type { Knex } from 'knex';
import { readRows } from '../../db/hotReads';
import type { AccountProviderSettings } from '../../providers/settings';
import type { FollowUpType, OnFailureAction } from './followUpChoices';
import type { Account } from './account';

export interface AccountRow extends Account, AccountProviderSettings {
  webhook_secret_encrypted: string | null;
  /** What buyers see on the hosted pages and in e-mails; null: `name`. */
  display_name: string | null;
  /** Where customers can write to the merchant; shown in e-mails and on the pay and portal pages. */
  contact_email: string | null;
  /** The SEPA creditor identifier, named in every direct-debit pre-notification. */
  creditor_id: string | null;
  /** The portal actions allowed, comma-separated; null: all of them (see portalSettings). */
  portal_allowed_actions: string | null;
  /** The longest pause a customer can choose in the portal; null: the default. */
  portal_max_pause_days: number | null;
  /** Who mails customers about their subscriptions' changes: `store` (the plugin); null: the service. */
  portal_mails: 'store' | null;
  created_at: string;
  updated_at: string;
}

export interface ApiTokenRow {
  id: string;
  account_id: string;
  prefix: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** How the account follows up failed payments, as stored. */
export interface FollowUpSettingsColumns {
  follow_up_type: FollowUpType;
  follow_up_max_retries: number;
  follow_up_retry_days: number;
  follow_up_on_failure: OnFailureAction;
}

const accounts = (db: Knex) => db('accounts');

export const accountsRepository = {
  findByName: (db: Knex, name: string) => db<AccountRow>('accounts').where({ name }).first(),

  findById: (db: Knex, id: string) => db<AccountRow>('accounts').where({ id }).first(),

  /** Read for every provider webhook call and hosted page (see hotReads). */
  findByPublicRef: async (db: Knex, publicRef: string): Promise<AccountRow | undefined> => {
    const [account] = await readRows<AccountRow>(db, 'select * from `accounts` where `public_ref` = ? limit 1', [publicRef]);
    return account;
  },

  insert: (db: Knex, row: AccountRow) => db<AccountRow>('accounts').insert(row),

  update: (db: Knex, id: string, changes: Partial<AccountRow>) => db<AccountRow>('accounts').where({ id }).update(changes),

  list: (db: Knex) => db<AccountRow>('accounts').orderBy('name'),

  /**
   * What the provider registry needs of an account, read on every lookup so a changed key takes
   * effect at once: a hot read (see hotReads); inside a transaction, as that transaction sees it.
   */
  providerSettings: async (db: Knex, id: string): Promise<AccountProviderSettings | undefined> => {
    const [settings] = await readRows<AccountProviderSettings>(
      db,
      'select `provider`, `provider_credentials_sealed`, `provider_profile_id`, `provider_options` from `accounts` where `id` = ? limit 1',
      [id],
    );
    return settings;
  },

  // The account's own settings that other modules read and the CLI sets (follow-ups, pre-notification,
  // account events, bookkeeping).
  followUpSettings: (db: Knex, accountId: string) =>
    accounts(db)
      .where({ id: accountId })
      .first<FollowUpSettingsColumns | undefined>(
        'follow_up_type',
        'follow_up_max_retries',
        'follow_up_retry_days',
        'follow_up_on_failure',
      ),

  setFollowUpSettings: (db: Knex, accountId: string, columns: FollowUpSettingsColumns & { updated_at: string }) =>
    accounts(db).where({ id: accountId }).update(columns),

  setEventsUrl: (db: Knex, accountId: string, url: string | null, now: string) =>
    accounts(db).where({ id: accountId }).update({ events_url: url, updated_at: now }),

  setPreNotificationDays: (db: Knex, accountId: string, days: number | null, now: string) =>
    accounts(db).where({ id: accountId }).update({ pre_notification_days: days, updated_at: now }),

  /** The accounts that tell customers of a direct debit in advance, and how many days. */
  withPreNotification: async (db: Knex): Promise<Array<{ id: string; pre_notification_days: number }>> =>
    (await accounts(db).whereNotNull('pre_notification_days').select('id', 'pre_notification_days')) as Array<{
      id: string;
      pre_notification_days: number;
    }>,

  /** What customers are told about the merchant (see profile.ts). */
  profileOf: (db: Knex, accountId: string) =>
    accounts(db)
      .where({ id: accountId })
      .first<Pick<AccountRow, 'name' | 'display_name' | 'contact_email' | 'creditor_id'> | undefined>(
        'name',
        'display_name',
        'contact_email',
        'creditor_id',
      ),

  /** What the customer portal allows, as stored (see portalSettings.ts). */
  portalSettingsOf: (db: Knex, accountId: string) =>
    accounts(db)
      .where({ id: accountId })
      .first<Pick<AccountRow, 'portal_allowed_actions' | 'portal_max_pause_days'> | undefined>(
        'portal_allowed_actions',
        'portal_max_pause_days',
      ),

  bookkeepingSystemOf: (db: Knex, accountId: string) =>
    accounts(db).where({ id: accountId }).first<{ bookkeeping_system: string | null } | undefined>('bookkeeping_system'),

  setBookkeepingSystem: (db: Knex, accountId: string, system: string | null, now: string) =>
    accounts(db).where({ id: accountId }).update({ bookkeeping_system: system, updated_at: now }),

  /** Every account's id, in id order. */
  allIds: (db: Knex) => accounts(db).orderBy('id').pluck<string[]>('id'),
};

/** A live token and its account, as authentication needs them. */
export interface ActiveToken {
  token_id: string;
  last_used_at: string | null;
  account_id: string;
  account_name: string;
  bookkeeping_system: string | null;
  public_ref: string;
}

const ACTIVE_TOKEN_SQL =
  'select `api_tokens`.`id` as `token_id`, `api_tokens`.`last_used_at`, `accounts`.`id` as `account_id`, ' +
  '`accounts`.`name` as `account_name`, `accounts`.`bookkeeping_system`, `accounts`.`public_ref` ' +
  'from `api_tokens` inner join `accounts` on `accounts`.`id` = `api_tokens`.`account_id` ' +
  'where `api_tokens`.`token_hash` = ? and `api_tokens`.`revoked_at` is null limit 1';

export const apiTokensRepository = {
  insert: (db: Knex, row: ApiTokenRow) => db<ApiTokenRow>('api_tokens').insert(row),

  /** The live token with this hash, joined to its account: read on every API request (see hotReads). */
  findActiveByHash: async (db: Knex, tokenHash: string): Promise<ActiveToken | undefined> => {
    const [found] = await readRows<ActiveToken>(db, ACTIVE_TOKEN_SQL, [tokenHash]);
    return found;
  },

  listForAccount: (db: Knex, accountId: string) => db<ApiTokenRow>('api_tokens').where({ account_id: accountId }).orderBy('created_at'),

  findByPrefix: (db: Knex, prefix: string) => db<ApiTokenRow>('api_tokens').where('prefix', prefix).first(),

  revoke: (db: Knex, id: string, at: string) =>
    db<ApiTokenRow>('api_tokens').where({ id }).whereNull('revoked_at').update({ revoked_at: at }),

  /** Records use at most once a minute: the WHERE makes concurrent requests write once. */
  touch: (db: Knex, id: string, now: string, notBefore: string) =>
    db<ApiTokenRow>('api_tokens')
      .where({ id })
      .andWhere((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', notBefore))
      .update({ last_used_at: now }),
};
