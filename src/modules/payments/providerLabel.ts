import type { AppContext } from '../../context';
import { adapterOfAccount } from '../../providers';
import { accountsRepository } from '../accounts/repository';
import type { PaymentRow } from './repository';

/**
 * "<Provider> payment tr_…": a payment as the merchant finds it at the account's provider (payments
 * carry no provider of their own: an account's payments go through its provider).
 */
export async function providerPaymentLabel(ctx: AppContext, payment: Pick<PaymentRow, 'account_id' | 'id' | 'provider_payment_id'>): Promise<string> {
  let provider: string;
  try {
    provider = adapterOfAccount(await accountsRepository.providerSettings(ctx.db, payment.account_id), ctx.config)?.displayName ?? 'Provider';
  } catch {
    provider = 'Provider';
  }
  return `${provider} payment ${payment.provider_payment_id ?? payment.id}`;
}
