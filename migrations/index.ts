import type { Knex } from 'knex';
import * as accountsAndTokens from './20261121_001_accounts_and_tokens';
import * as customersProductsMandates from './20261121_002_customers_products_mandates';
import * as subscriptions from './20261121_003_subscriptions';
import * as paymentsLinksFollowUpsOrders from './20261121_004_payments_links_followups_orders';
import * as sandboxProvider from './20261121_005_sandbox_provider';
import * as providerLifecycle from './20261121_006_provider_lifecycle';
import * as idempotencyKeyCase from './20261121_007_idempotency_key_case';

/**
 * Migrations are listed here rather than discovered on disk, so the same list runs from ts-jest
 * (TypeScript sources) and from the compiled build (JavaScript) without file-extension games.
 * Append new migrations at the end; never edit one that has shipped.
 */
const migrations: Record<string, Knex.Migration> = {
  '20261121_001_accounts_and_tokens': accountsAndTokens,
  '20261121_002_customers_products_mandates': customersProductsMandates,
  '20261121_003_subscriptions': subscriptions,
  '20261121_004_payments_links_followups_orders': paymentsLinksFollowUpsOrders,
  '20261121_005_sandbox_provider': sandboxProvider,
  '20261121_006_provider_lifecycle': providerLifecycle,
  '20261121_007_idempotency_key_case': idempotencyKeyCase,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = migrations[name];
    if (!migration) throw new Error(`Unknown migration ${name}`);
    return migration;
  },
};
