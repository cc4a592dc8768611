import type { ProviderAdapter } from '../adapter';
import { USUAL_PAYMENT_EXPIRY } from '../methodExpiry';
import { storedOption } from '../settings';
import { MollieProvider, type MollieCredentials } from './provider';
import { accountCredentials, maskMollieKey, openMollieKey } from './settings';
import { API_URL_OPTION, mollieSettingsForm } from './settingsForm';
import { mollieSubscriptionsImport } from './subscriptionsImport';

/** Mollie's ids of payments: what its webhook posts as `id`. */
const PAYMENT_ID = /^tr_[0-9A-Za-z]{1,60}$/;

/**
 * Mollie: an account's own key (`accounts set-provider --mollie-api-key`), else MOLLIE_API_KEY for
 * every account without one.
 */
export const mollieAdapter: ProviderAdapter = {
  name: 'mollie',
  displayName: 'Mollie',
  // Mollie replays an idempotency key's answer for one hour; a margin below it.
  idempotencyKeyWindowMs: 55 * 60 * 1000,
  // Mollie, "Payment status changes → Expiry times per payment method" (docs.mollie.com), and for
  // SEPA Direct Debit its help centre's "processing times": the usual times.
  paymentExpiry: USUAL_PAYMENT_EXPIRY,
  // Its hosted checkout, where a form POST to our pay page is redirected on to.
  checkoutOrigins: () => ['https://www.mollie.com'],

  // Mollie posts `id=tr_…` as a form and signs nothing: the payment is fetched from Mollie.
  webhook: {
    contentTypes: ['application/x-www-form-urlencoded'],
    parse({ body }) {
      const id = body ? new URLSearchParams(body.toString('utf8')).get('id') : null;
      return id !== null && PAYMENT_ID.test(id) ? { paymentId: id } : null;
    },
  },

  servesAccountsWithoutSettings: (config) => Boolean(config.MOLLIE_API_KEY),
  fallbackText: 'MOLLIE_API_KEY if set',
  describeDefault: (config) => `environment MOLLIE_API_KEY ${maskMollieKey(config.MOLLIE_API_KEY ?? '')}`,
  accountSettings: mollieSettingsForm,
  subscriptionsImport: mollieSubscriptionsImport,

  open({ logger, config }) {
    let warnedLocalWebhook = false;
    const onLocalWebhookUrl = () => {
      if (warnedLocalWebhook) return;
      warnedLocalWebhook = true;
      logger.warn(
        'PUBLIC_URL points at this machine, where Mollie cannot deliver webhooks: payments are created without a webhookUrl and the ' +
          'reconciliation job brings their status up to date',
        { publicUrl: config.publicUrl },
      );
    };
    const mollie = (credentials: MollieCredentials, apiUrl: string | null) =>
      new MollieProvider({ credentials, apiUrl, logger, onLocalWebhookUrl, timeoutMs: config.MOLLIE_TIMEOUT_MS });
    let fromEnvironment: MollieProvider | undefined;

    return (_accountId, settings) => {
      if (settings) {
        const stored = openMollieKey(config.appKey, settings.provider_credentials_sealed ?? '');
        // An account's own key still goes to MOLLIE_API_URL when it has no URL of its own (a shared mock, a proxy).
        const apiUrl = storedOption(settings, API_URL_OPTION) ?? config.MOLLIE_API_URL ?? null;
        return mollie(accountCredentials(stored, settings.provider_profile_id, config), apiUrl);
      }
      if (!config.MOLLIE_API_KEY) throw new Error('Mollie serves accounts without a key of their own only with MOLLIE_API_KEY');
      fromEnvironment ??= mollie({ kind: 'apiKey', apiKey: config.MOLLIE_API_KEY }, config.MOLLIE_API_URL ?? null);
      return fromEnvironment;
    };
  },
};
