import type { ProviderAdapter } from '../adapter';
import { USUAL_PAYMENT_EXPIRY } from '../methodExpiry';
import { SandboxProvider } from './provider';

/**
 * The in-process sandbox: for accounts without a provider of their own where it is enabled (never
 * by default in production). Its checkout pages report changes in-process, not by webhook.
 */
export const sandboxAdapter: ProviderAdapter = {
  name: 'sandbox',
  displayName: 'Sandbox',
  // The sandbox keeps its keys for good, but resumes as against a real provider (whose window is
  // about an hour), so the look-up after the window is exercised wherever the sandbox runs.
  idempotencyKeyWindowMs: 55 * 60 * 1000,
  paymentExpiry: USUAL_PAYMENT_EXPIRY,
  // Its checkout pages are ours.
  checkoutOrigins: (config) => [new URL(config.publicUrl).origin],
  webhook: null,
  servesAccountsWithoutSettings: (config) => config.sandboxEnabled,
  fallbackText: 'the sandbox',
  accountSettings: null,
  open:
    ({ db, clock, config }) =>
    (accountId) =>
      new SandboxProvider(db, clock, accountId, config.publicUrl),
};
