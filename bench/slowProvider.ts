import { randomBase62 } from '../src/ids';
import type {
  PaymentProvider,
  PaymentLimits,
  ProviderCustomerPage,
  ProviderPaymentPage,
  ProviderMandate,
  ProviderPayment,
  ProviderPaymentInput,
  ProviderRefund,
  ProviderSubscription,
} from '../src/providers/types';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A payment provider that answers after `latencyMs`, as a remote API on the other side of the
 * internet does: payments are made `pending` (a direct debit) and read back paid once payAll is
 * called. Only what a billing run and its payments' settlement call is implemented.
 */
export class SlowProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  created = 0;
  private readonly payments = new Map<string, ProviderPayment>();
  private paid = false;

  constructor(private readonly latencyMs: number) {}

  /** Every payment made is paid from now on (its payers' banks paid). */
  payAll(): void {
    this.paid = true;
  }

  async getPayment(id: string): Promise<ProviderPayment> {
    await sleep(this.latencyMs);
    const payment = this.payments.get(id);
    if (!payment) throw new Error(`no payment ${id}`);
    return this.paid ? { ...payment, status: 'paid', paidAt: new Date() } : payment;
  }

  async createPayment(input: ProviderPaymentInput): Promise<ProviderPayment> {
    await sleep(this.latencyMs);
    this.created += 1;
    const payment: ProviderPayment = {
      id: `tr_${randomBase62(10)}`,
      status: 'pending',
      amount: input.amount,
      currency: input.currency,
      method: 'directdebit',
      checkoutUrl: null,
      customerId: input.customerId,
      mandateId: input.mandateId,
      paidAt: null,
      failureReason: null,
      failureCode: null,
      amountRefunded: 0,
      amountChargedBack: 0,
      reference: input.reference,
      createdAt: new Date(),
    };
    this.payments.set(payment.id, payment);
    return payment;
  }

  private unused(): never {
    throw new Error('not used by a billing run');
  }

  createCustomer(): Promise<{ id: string }> {
    return this.unused();
  }
  findCustomerByReference(): Promise<{ id: string } | null> {
    return this.unused();
  }
  updateCustomer(): Promise<void> {
    return this.unused();
  }
  createMandate(): Promise<ProviderMandate> {
    return this.unused();
  }
  getMandate(): Promise<ProviderMandate> {
    return this.unused();
  }
  listMandates(): Promise<ProviderMandate[]> {
    return this.unused();
  }
  revokeMandate(): Promise<void> {
    return this.unused();
  }
  findPaymentByReference(): Promise<ProviderPayment | null> {
    return this.unused();
  }
  cancelPayment(): Promise<ProviderPayment> {
    return this.unused();
  }
  listMethods(): Promise<string[]> {
    return this.unused();
  }
  paymentLimits(): Promise<PaymentLimits> {
    return this.unused();
  }
  listCustomers(): Promise<ProviderCustomerPage> {
    return this.unused();
  }
  listPayments(): Promise<ProviderPaymentPage> {
    return this.unused();
  }
  listSubscriptions(): Promise<ProviderSubscription[]> {
    return this.unused();
  }
  cancelSubscription(): Promise<ProviderSubscription> {
    return this.unused();
  }
  listSubscriptionPayments(): Promise<ProviderPayment[]> {
    return this.unused();
  }
  createRefund(): Promise<ProviderRefund> {
    return this.unused();
  }
  listRefunds(): Promise<ProviderRefund[]> {
    return this.unused();
  }
  findRefundByReference(): Promise<ProviderRefund | null> {
    return this.unused();
  }
}
