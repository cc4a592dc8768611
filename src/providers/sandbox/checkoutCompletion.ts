import type { Knex } from 'knex';
import { toDbDateTime } from '../../time';
import { providerId, type SandboxCustomerRow, type SandboxMandateRow, type SandboxPaymentRow } from './rows';

export const CHECKOUT_OUTCOMES = ['paid', 'failed', 'canceled', 'expired'] as const;
export type CheckoutOutcome = (typeof CHECKOUT_OUTCOMES)[number];

/** Made-up payer details of the kind a provider reports on a mandate (the IBAN is a well-known example one). */
const TEST_IBAN = { account: 'NL55INGB0000000000', bic: 'INGBNL2A' };
const TEST_CARD = { lastDigits: '4242', label: 'Visa', validYears: 3 };

/**
 * The mandate a provider leaves when a `first` payment is paid, of the kind the payer paid with: a card
 * payment gives a creditcard mandate on that card; iDEAL, Bancontact and the other bank methods give
 * a SEPA directdebit mandate on the payer's account. Valid at once, with no mandate reference.
 */
export function mandateForPaidFirstPayment(
  payment: Pick<SandboxPaymentRow, 'account_id' | 'customer_id' | 'method'>,
  customer: Pick<SandboxCustomerRow, 'id' | 'name'>,
  now: Date,
): SandboxMandateRow {
  const card = payment.method === 'creditcard';
  const expiryYear = now.getUTCFullYear() + TEST_CARD.validYears;
  return {
    id: providerId('mdt'),
    account_id: payment.account_id,
    customer_id: customer.id,
    method: card ? 'creditcard' : 'directdebit',
    status: 'valid',
    consumer_name: card ? null : customer.name,
    consumer_account: card ? null : TEST_IBAN.account,
    consumer_bic: card ? null : TEST_IBAN.bic,
    card_holder: card ? customer.name : null,
    card_number: card ? TEST_CARD.lastDigits : null,
    card_label: card ? TEST_CARD.label : null,
    // Providers give a card's expiry as the last day of its month.
    card_expiry_date: card ? `${expiryYear}-12-31` : null,
    mandate_reference: null,
    signature_date: toDbDateTime(now).slice(0, 10),
    idempotency_key: null,
    created_at: toDbDateTime(now),
  };
}

/**
 * The provider side of a payer finishing the sandbox checkout. The status moves only from `open`,
 * and a paid first payment's mandate is made in the same transaction, so of two racing clicks one
 * moves the payment and makes the mandate, and the other changes nothing. Answers whether it moved.
 */
export async function completeCheckout(db: Knex, payment: SandboxPaymentRow, outcome: CheckoutOutcome, now: Date): Promise<boolean> {
  const stamp = toDbDateTime(now);
  return db.transaction(async (trx) => {
    const customer =
      outcome === 'paid' && payment.sequence_type === 'first' && payment.customer_id
        ? await trx<SandboxCustomerRow>('sandbox_customers').where({ account_id: payment.account_id, id: payment.customer_id }).first()
        : undefined;
    const mandate = customer ? mandateForPaidFirstPayment(payment, customer, now) : null;
    const moved = await trx('sandbox_payments')
      .where({ id: payment.id, status: 'open' })
      .update({
        status: outcome,
        paid_at: outcome === 'paid' ? stamp : null,
        failure_reason: outcome === 'failed' ? 'The payment was declined in the sandbox checkout' : null,
        failure_code: outcome === 'failed' ? 'sandbox_declined' : null,
        ...(mandate ? { mandate_id: mandate.id } : {}),
        updated_at: stamp,
      });
    if (moved && mandate) await trx('sandbox_mandates').insert(mandate);
    return moved > 0;
  });
}
