import { randomBase62 } from '../../src/ids';
import type { ProviderAdapter } from '../../src/providers/adapter';
import { ProviderSettingsError } from '../../src/providers/adapter';
import { ProviderNotFoundError } from '../../src/providers/errors';
import { USUAL_PAYMENT_EXPIRY } from '../../src/providers/methodExpiry';
import type {
  PaymentProvider,
  ProviderMandate,
  ProviderPayment,
  ProviderPaymentInput,
  ProviderRefund,
  ProviderSubscription,
} from '../../src/providers/types';

/**
 * "Fakepay": a second payment provider that exists in the tests only, registered through the
 * registry's test hook, to show that a provider is its adapter and nothing else. Its payments live
 * in memory; `payAtProvider` is the payer paying on its checkout. It reports changes by a JSON
 * webhook `{"payment": "fp_…"}`.
 */
export interface Fakepay {
  adapter: ProviderAdapter;
  /** What its webhook is sent: the payment that changed. */
  webhookBody(paymentId: string): string;
  payAtProvider(paymentId: string): void;
  /** The payments made, with the webhook URL each was given. */
  payments: Map<string, ProviderPayment & { webhookUrl: string | null; token: string }>;
}

export function fakepay(): Fakepay {
  const payments: Fakepay['payments'] = new Map();
  const byKey = new Map<string, string>();

  const provider = (token: string): PaymentProvider => ({
    name: 'fakepay',
    async createCustomer() {
      return { id: `fpc_${randomBase62(10)}` };
    },
    async findCustomerByReference() {
      return null;
    },
    async updateCustomer() {},
    async createMandate(): Promise<ProviderMandate> {
      throw new ProviderNotFoundError('fakepay keeps no mandates');
    },
    async getMandate(): Promise<ProviderMandate> {
      throw new ProviderNotFoundError('fakepay keeps no mandates');
    },
    async listMandates() {
      return [];
    },
    async revokeMandate() {},
    async createPayment(input: ProviderPaymentInput, idempotencyKey: string) {
      const known = byKey.get(idempotencyKey);
      if (known) return payments.get(known) as ProviderPayment;
      const id = `fp_${randomBase62(10)}`;
      const payment = {
        id,
        status: 'open' as const,
        amount: input.amount,
        currency: input.currency,
        method: input.method,
        checkoutUrl: `https://checkout.fakepay.test/${id}`,
        customerId: input.customerId,
        mandateId: null,
        paidAt: null,
        failureReason: null,
        failureCode: null,
        amountRefunded: 0,
        amountChargedBack: 0,
        reference: input.reference,
        createdAt: new Date(),
        webhookUrl: input.webhookUrl,
        token,
      };
      payments.set(id, payment);
      byKey.set(idempotencyKey, id);
      return payment;
    },
    async getPayment(id: string) {
      const payment = payments.get(id);
      if (!payment) throw new ProviderNotFoundError(`payment ${id}`);
      return payment;
    },
    async findPaymentByReference({ reference }) {
      return [...payments.values()].find((payment) => payment.reference === reference) ?? null;
    },
    async cancelPayment(id: string) {
      const payment = payments.get(id);
      if (!payment) throw new ProviderNotFoundError(`payment ${id}`);
      return payment;
    },
    async listMethods() {
      return ['fakecard'];
    },
    // Fakepay names no maximum and takes euros only.
    async paymentLimits(_sequenceType, currency) {
      return { methods: currency === 'EUR' ? [{ method: 'fakecard', minimum: 1, maximum: null }] : [], currencies: ['EUR'] };
    },
    // Fakepay bills no subscriptions of its own.
    async listCustomers() {
      return { customers: [], next: null };
    },
    async listPayments(since: Date) {
      return { payments: [...payments.values()].filter((payment) => payment.createdAt >= since).reverse(), next: null };
    },
    async listSubscriptions() {
      return [];
    },
    async cancelSubscription(_customerId: string, subscriptionId: string): Promise<ProviderSubscription> {
      throw new ProviderNotFoundError(`subscription ${subscriptionId}`);
    },
    async listSubscriptionPayments() {
      return [];
    },
    async createRefund(): Promise<ProviderRefund> {
      throw new ProviderNotFoundError('fakepay makes no refunds');
    },
    async listRefunds() {
      return [];
    },
    async findRefundByReference() {
      return null;
    },
  });

  const adapter: ProviderAdapter = {
    name: 'fakepay',
    displayName: 'Fakepay',
    idempotencyKeyWindowMs: 24 * 60 * 60 * 1000,
    paymentExpiry: USUAL_PAYMENT_EXPIRY,
    checkoutOrigins: () => ['https://checkout.fakepay.test'],
    webhook: {
      contentTypes: ['application/json'],
      parse({ body }) {
        let parsed: unknown;
        try {
          parsed = body ? JSON.parse(body.toString('utf8')) : null;
        } catch {
          return null;
        }
        const payment = typeof parsed === 'object' && parsed !== null ? (parsed as { payment?: unknown }).payment : undefined;
        return typeof payment === 'string' && payment.startsWith('fp_') ? { paymentId: payment } : null;
      },
    },
    servesAccountsWithoutSettings: () => false,
    fallbackText: null,
    accountSettings: {
      options: [{ flags: '--fakepay-token <token>', description: 'a Fakepay token (tests only)' }],
      noun: 'Fakepay token',
      absentText: 'no Fakepay token on the account',
      setUpHint: 'give the account a Fakepay token',
      settingsFrom(values) {
        const token = typeof values.fakepayToken === 'string' ? values.fakepayToken.trim() : '';
        if (!/^fpt_\w+$/.test(token)) throw new ProviderSettingsError('A Fakepay token is fpt_ followed by letters and digits');
        return { credentialsSealed: token, profileId: null, options: null, summary: `Fakepay with token ${token.slice(0, 6)}…` };
      },
      describe: (settings) => `token ${(settings.provider_credentials_sealed ?? '').slice(0, 6)}…`,
      shownLines: () => [],
    },
    open: () => (_accountId, settings) => provider(settings?.provider_credentials_sealed ?? ''),
  };

  return {
    adapter,
    payments,
    webhookBody: (paymentId) => JSON.stringify({ payment: paymentId }),
    payAtProvider(paymentId) {
      const payment = payments.get(paymentId);
      if (!payment) throw new Error(`no fakepay payment ${paymentId}`);
      payments.set(paymentId, { ...payment, status: 'paid', paidAt: new Date(), method: 'fakecard' });
    },
  };
}
