import { BackgroundTasks } from './background';
import type { Config } from './config';
import type { AppContext } from './context';
import { connectDatabase } from './db/connect';
import { migrateLatest } from './db/migrate';
import { createShopPlatforms } from './integrations';
import { memoryCounter, redisCounter } from './http/rateLimit/counters';
import { createMetrics } from './metrics';
import type { Logger } from './logger';
import { accountsRepository } from './modules/accounts/repository';
import { registerBillingSettlement } from './modules/billing/settlement';
import { registerPaymentInvoices } from './modules/invoices/paymentInvoices';
import { registerOwedInvoices } from './modules/invoices/owed';
import { registerRefundCredits } from './modules/invoices/moneyBack';
import { PaymentFetchHooks } from './modules/payments/fetched';
import { RefundSettlementHooks } from './modules/refunds/hooks';
import { registerRefundSync } from './modules/refunds/service';
import { registerFollowUpSettlement } from './modules/follow-ups/settlement';
import { registerLinkFulfilment } from './modules/links/fulfilment';
import { LinkFulfilmentHooks } from './modules/links/typeFulfilments';
import { MandateValidHooks } from './modules/mandates/validHooks';
import { OrderCheckouts } from './modules/payments/orderCheckouts';
import { SettlementHooks } from './modules/payments/settlement';
import { registerStoreCheckout } from './modules/store/checkout';
import { registerStoreOrderSettlement } from './modules/store/orderSettlement';
import { registerDraftActivation } from './modules/subscriptions/activation';
import { registerTakeovers } from './modules/takeovers/service';
import { createProviderRegistry } from './providers';
import { systemClock, type Clock } from './time';

export interface OpenedContext {
  ctx: AppContext;
  /** Names of the migrations that ran while opening (empty when the schema was up to date). */
  migrated: string[];
}

/** Connects, migrates and wires the context shared by the server, the CLI and the tests. */
export async function createContext(config: Config, logger: Logger, clock: Clock = systemClock): Promise<OpenedContext> {
  const db = connectDatabase(config.DATABASE_URL, logger);
  const migrated = await migrateLatest(db);
  if (migrated.length) logger.info('database migrated', { migrations: migrated });
  const providers = createProviderRegistry({
    db,
    clock,
    logger,
    config,
    loadSettings: (accountId) => accountsRepository.providerSettings(db, accountId),
  });
  const rateLimits = config.REDIS_URL ? await redisCounter(config.REDIS_URL, logger) : memoryCounter();
  const ctx: AppContext = {
    db,
    config,
    logger,
    clock,
    providers,
    platforms: createShopPlatforms(),
    background: new BackgroundTasks(logger),
    settlements: new SettlementHooks(),
    paymentFetches: new PaymentFetchHooks(),
    refundSettlements: new RefundSettlementHooks(),
    linkFulfilments: new LinkFulfilmentHooks(),
    mandateValid: new MandateValidHooks(),
    orderCheckouts: new OrderCheckouts(),
    rateLimits,
    metrics: createMetrics({ db, clock, timeZone: config.APP_TIMEZONE }),
  };
  // What reacts when a payment settles: each feature registers its handlers, each in its phase (the
  // phases, not the order of these lines, decide what runs first: SETTLEMENT_PHASES in payments/settlement.ts).
  registerLinkFulfilment(ctx);
  registerBillingSettlement(ctx);
  registerStoreOrderSettlement(ctx);
  registerFollowUpSettlement(ctx);
  registerPaymentInvoices(ctx);
  registerOwedInvoices(ctx);
  // Payments for a store order (shop_order_id) find their order through the store.
  registerStoreCheckout(ctx);
  // A fetched payment's refunds are synced; a refund that went through credits the payment's invoice.
  registerRefundSync(ctx);
  registerRefundCredits(ctx);
  // A paid mandate link is fulfilled by its takeover; a mandate found valid moves the takeovers that waited
  // for it, then activates its drafts (the phases, MANDATE_VALID_PHASES in mandates/validHooks.ts, decide).
  registerTakeovers(ctx);
  registerDraftActivation(ctx);
  return { ctx, migrated };
}
