import { randomBase62 } from '../src/ids';
import type {
  PaymentProvider,
  ProviderCustomerPage,
  ProviderMandate,
  ProviderPayment,
  ProviderPaymentInput,
  ProviderRefund,
  ProviderSubscription,
} from '../src/providers/types';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A payment provider that answers every payment creation after `latencyMs`, as a remote API on the
 * other side of the internet does, with `status` (`paid`: the payment settles in the call that made
 * it). Only what a billing run calls is implemented.
 */
export class SlowProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  created = 0;

  constructor(
    private readonly latencyMs: number,
    private readonly status: ProviderPayment['status'] = 'pending',
  ) {}

  async createPayment(input: ProviderPaymentInput): Promise<ProviderPayment> {
    await sleep(this.latencyMs);
    this.created += 1;
    return {
      id: `tr_${randomBase62(10)}`,
      status: this.status,
      amount: input.amount,
      currency: input.currency,
      method: 'directdebit',
      checkoutUrl: null,
      customerId: input.customerId,
      mandateId: input.mandateId,
      paidAt: this.status === 'paid' ? new Date() : null,
      failureReason: null,
      failureCode: null,
      amountRefunded: 0,
      amountChargedBack: 0,
      reference: input.reference,
      createdAt: new Date(),
    };
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
  getPayment(): Promise<ProviderPayment> {
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
  listCustomers(): Promise<ProviderCustomerPage> {
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
