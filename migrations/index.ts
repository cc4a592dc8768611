import type { Knex } from 'knex';
import * as accountsAndTokens from './20261121_001_accounts_and_tokens';
import * as customersProductsMandates from './20261121_002_customers_products_mandates';
import * as subscriptions from './20261121_003_subscriptions';
import * as paymentsLinksFollowUpsOrders from './20261121_004_payments_links_followups_orders';
import * as sandboxProvider from './20261121_005_sandbox_provider';
import * as providerLifecycle from './20261121_006_provider_lifecycle';
import * as idempotencyKeyCase from './20261121_007_idempotency_key_case';
import * as paymentPipeline from './20261122_008_payment_pipeline';
import * as jobLeaseFencing from './20261122_009_job_lease_fencing';
import * as webhookCallBackoff from './20261122_010_webhook_call_backoff';
import * as sandboxReferences from './20261122_011_sandbox_references';
import * as paymentLinks from './20261123_012_payment_links';
import * as outgoingMails from './20261123_013_outgoing_mails';
import * as accountDisplayName from './20261123_014_account_display_name';
import * as billing from './20261124_015_billing';
import * as shops from './20261125_016_shops';
import * as syncRuns from './20261125_017_sync_runs';
import * as shopWebhookDeliveries from './20261125_018_shop_webhook_deliveries';
import * as storeOrders from './20261126_019_store_orders';
import * as pluginLookups from './20261127_020_plugin_lookups';
import * as rateLimitsLeaveTheDatabase from './20261128_021_rate_limits_leave_the_database';
import * as accountListNumbers from './20261128_022_account_list_numbers';
import * as webhookCallReceipts from './20261129_023_webhook_call_receipts';
import * as creationResumption from './20261130_024_creation_resumption';
import * as idempotencyLockToken from './20261130_025_idempotency_lock_token';
import * as latePaymentNews from './20261130_026_late_payment_news';
import * as mandateRefresh from './20261130_027_mandate_refresh';
import * as billingRuns from './20261130_028_billing_runs';
import * as onePaymentInProgress from './20261130_029_one_payment_in_progress';
import * as accountProviderSettings from './20261201_030_account_provider_settings';
import * as storeDeliveryContent from './20261202_031_store_delivery_content';
import * as shopWebhookHealth from './20261203_032_shop_webhook_health';
import * as productVariations from './20261203_033_product_variations';
import * as storeOrderAmounts from './20261203_034_store_order_amounts';
import * as productShipped from './20261203_035_product_shipped';
import * as skipsAndListFilters from './20261204_036_skips_and_list_filters';
import * as mandateTakeovers from './20261204_037_mandate_takeovers';
import * as accountProfileAndPortal from './20261204_039_account_profile_and_portal';
import * as portalSessions from './20261205_040_portal_sessions';
import * as portalActions from './20261205_041_portal_actions';
import * as productTrials from './20261206_042_product_trials';
import * as storeSubscriptionMails from './20261206_043_store_subscription_mails';
import * as shopSubscriptions from './20261207_044_shop_subscriptions';
import * as imports from './20261208_045_imports';
import * as importHandover from './20261209_046_import_handover';
import * as refunds from './20261210_047_refunds';
import * as invoiceNumbers from './20261210_048_invoice_numbers';
import * as moneybird from './20261212_049_moneybird';
import * as invoicesOfEveryPayment from './20261213_050_invoices_of_every_payment';
import * as operationsMetrics from './20261214_051_operations_metrics';
import * as shopSubscriptionFilter from './20261215_052_shop_subscription_filter';
import * as renewalVat from './20261215_053_renewal_vat';
import * as handoverAndMandateUse from './20261215_054_handover_and_mandate_use';
import * as invoicesOwedAndNumberedApart from './20261215_055_invoices_owed_and_numbered_apart';
import * as refundsTheBooksTrust from './20261215_056_refunds_the_books_trust';
import * as ledgerAudit from './20261215_057_ledger_audit';
import * as bookkeepingQueuedWithInvoice from './20261215_058_bookkeeping_queued_with_invoice';

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
  '20261122_008_payment_pipeline': paymentPipeline,
  '20261122_009_job_lease_fencing': jobLeaseFencing,
  '20261122_010_webhook_call_backoff': webhookCallBackoff,
  '20261122_011_sandbox_references': sandboxReferences,
  '20261123_012_payment_links': paymentLinks,
  '20261123_013_outgoing_mails': outgoingMails,
  '20261123_014_account_display_name': accountDisplayName,
  '20261124_015_billing': billing,
  '20261125_016_shops': shops,
  '20261125_017_sync_runs': syncRuns,
  '20261125_018_shop_webhook_deliveries': shopWebhookDeliveries,
  '20261126_019_store_orders': storeOrders,
  '20261127_020_plugin_lookups': pluginLookups,
  '20261128_021_rate_limits_leave_the_database': rateLimitsLeaveTheDatabase,
  '20261128_022_account_list_numbers': accountListNumbers,
  '20261129_023_webhook_call_receipts': webhookCallReceipts,
  '20261130_024_creation_resumption': creationResumption,
  '20261130_025_idempotency_lock_token': idempotencyLockToken,
  '20261130_026_late_payment_news': latePaymentNews,
  '20261130_027_mandate_refresh': mandateRefresh,
  '20261130_028_billing_runs': billingRuns,
  '20261130_029_one_payment_in_progress': onePaymentInProgress,
  '20261201_030_account_provider_settings': accountProviderSettings,
  '20261202_031_store_delivery_content': storeDeliveryContent,
  '20261203_032_shop_webhook_health': shopWebhookHealth,
  '20261203_033_product_variations': productVariations,
  '20261203_034_store_order_amounts': storeOrderAmounts,
  '20261203_035_product_shipped': productShipped,
  '20261204_036_skips_and_list_filters': skipsAndListFilters,
  '20261204_037_mandate_takeovers': mandateTakeovers,
  '20261204_039_account_profile_and_portal': accountProfileAndPortal,
  '20261205_040_portal_sessions': portalSessions,
  '20261205_041_portal_actions': portalActions,
  '20261206_042_product_trials': productTrials,
  '20261206_043_store_subscription_mails': storeSubscriptionMails,
  '20261207_044_shop_subscriptions': shopSubscriptions,
  '20261208_045_imports': imports,
  '20261209_046_import_handover': importHandover,
  '20261210_047_refunds': refunds,
  '20261210_048_invoice_numbers': invoiceNumbers,
  '20261212_049_moneybird': moneybird,
  '20261213_050_invoices_of_every_payment': invoicesOfEveryPayment,
  '20261214_051_operations_metrics': operationsMetrics,
  '20261215_052_shop_subscription_filter': shopSubscriptionFilter,
  '20261215_053_renewal_vat': renewalVat,
  '20261215_054_handover_and_mandate_use': handoverAndMandateUse,
  '20261215_055_invoices_owed_and_numbered_apart': invoicesOwedAndNumberedApart,
  '20261215_056_refunds_the_books_trust': refundsTheBooksTrust,
  '20261215_057_ledger_audit': ledgerAudit,
  '20261215_058_bookkeeping_queued_with_invoice': bookkeepingQueuedWithInvoice,
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
