import type { Knex } from 'knex';
import type { BackgroundTasks } from './background';
import type { Config } from './config';
import type { ShopPlatformRegistry } from './integrations';
import type { RateLimitCounter } from './http/rateLimit/counters';
import type { Metrics } from './metrics';
import type { Logger } from './logger';
import type { Clock } from './time';
import type { LinkFulfilmentHooks } from './modules/links/typeFulfilments';
import type { MandateValidHooks } from './modules/mandates/validHooks';
import type { OrderCheckouts } from './modules/payments/orderCheckouts';
import type { SettlementHooks } from './modules/payments/settlement';
import type { PaymentFetchHooks } from './modules/payments/fetched';
import type { RefundSettlementHooks } from './modules/refunds/hooks';
import type { ProviderRegistry } from './providers';

/** What every service needs, built once at start and passed explicitly (no module-level singletons). */
export interface AppContext {
  db: Knex;
  config: Config;
  logger: Logger;
  clock: Clock;
  providers: ProviderRegistry;
  /** The store platforms a store can be connected on (WooCommerce; tests add their own). */
  platforms: ShopPlatformRegistry;
  background: BackgroundTasks;
  /** The one place that reacts when a payment settles; features register their handlers at start. */
  settlements: SettlementHooks;
  /** What reacts when a payment was fetched from its provider (its refunds are brought up to date). */
  paymentFetches: PaymentFetchHooks;
  /** What reacts when a refund went through (the invoice's credit note); features register at start. */
  refundSettlements: RefundSettlementHooks;
  /** What a paid link of a type links do not fulfil themselves does (a mandate link's takeover); registered at start. */
  linkFulfilments: LinkFulfilmentHooks;
  /** What reacts when a refresh finds a mandate valid (waiting takeovers move, drafts activate), in named phases. */
  mandateValid: MandateValidHooks;
  /** Where a payment for a store order finds its order; the store registers it at start. */
  orderCheckouts: OrderCheckouts;
  /** Requests per token and minute: in memory, or in Redis when REDIS_URL is set. */
  rateLimits: RateLimitCounter;
  /** Prometheus instruments of this instance (GET /metrics). */
  metrics: Metrics;
}
