import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { isUniqueViolation } from '../../db/connect';
import { AppError, NotFoundError, ValidationError, errorMessage } from '../../errors';
import { WITHOUT_IDEMPOTENCY_KEY, type IdempotencyScope } from '../../db/idempotencyScope';
import type { PaymentProvider } from '../../providers';
import type { ProviderMandate } from '../../providers/types';
import { calendarDateIn, toDbDateTime } from '../../time';
import { customersRepository, type CustomerRow } from '../customers/repository';
import { enqueueMandateEvent } from './events';
import { mandatesRepository, type MandateOrigin, type MandateRow } from './repository';
import type { CreateMandateInput } from './schemas';

const CREATE_FAILED = 'Could not create mandate. Some fields contain invalid data';
const referenceTaken = (): ValidationError =>
  ValidationError.field(CREATE_FAILED, 'custom_mandate_reference', 'The custom mandate reference has already been taken.');

// Upper case and digits only: references are compared ignoring case, and banks print them in capitals.
const REFERENCE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `RPS-` and 12 random characters (≈ 62 bits): unique in practice; the unique key guards the rest. */
export function generateMandateReference(): string {
  let suffix = '';
  for (let i = 0; i < 12; i += 1) suffix += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `RPS-${suffix}`;
}

interface MandateRecordContext {
  customer: Pick<CustomerRow, 'id' | 'account_id'>;
  origin: MandateOrigin;
  reference: string | null;
  customReference: boolean;
  now: string;
  today: string;
}

/** What the provider tells of a mandate, as our row keeps it: its status and details are the truth. */
export function providerFieldsOf(
  mandate: ProviderMandate,
): Pick<
  MandateRow,
  | 'method'
  | 'status'
  | 'consumer_name'
  | 'consumer_account'
  | 'consumer_bic'
  | 'card_holder'
  | 'card_number'
  | 'card_expiry_date'
  | 'card_label'
  | 'card_fingerprint'
> {
  const { details } = mandate;
  return {
    method: mandate.method,
    status: mandate.status,
    consumer_name: details.consumerName ?? null,
    consumer_account: details.consumerAccount ?? null,
    consumer_bic: details.consumerBic ?? null,
    card_holder: details.cardHolder ?? null,
    card_number: details.cardNumber?.slice(-4) ?? null,
    card_expiry_date: details.cardExpiryDate ?? null,
    card_label: details.cardLabel ?? null,
    card_fingerprint: details.cardFingerprint ?? null,
  };
}

/** Our record of the provider's mandate. */
export function mandateRowFrom(
  created: ProviderMandate,
  { customer, origin, reference, customReference, now, today }: MandateRecordContext,
): MandateRow {
  return {
    id: created.id,
    account_id: customer.account_id,
    customer_id: customer.id,
    ...providerFieldsOf(created),
    mandate_reference: reference,
    custom_reference: customReference,
    signature_date: created.signatureDate ?? today,
    revoked_at: null,
    origin,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Records a mandate the provider made by itself (a paid first payment of ours; or, `import`, one an
 * import found there), in the caller's transaction. A concurrent processor of the same payment may
 * have recorded it already: then nothing changes.
 */
export async function recordProviderMandate(
  trx: Knex.Transaction,
  customer: Pick<CustomerRow, 'id' | 'account_id'>,
  mandate: ProviderMandate,
  at: { now: string; today: string },
  origin: MandateOrigin = 'first_payment',
): Promise<void> {
  if (await mandatesRepository.findForCustomer(trx, customer.account_id, customer.id, mandate.id)) return;
  const row = mandateRowFrom(mandate, { customer, origin, reference: mandate.mandateReference, customReference: false, ...at });
  await mandatesRepository.insert(trx, row);
  await enqueueMandateEvent(trx, row, 'created', at.now);
}

/**
 * A concurrent request stored the reference first. When the provider gave us a mandate of our own
 * (another customer raced for the same reference), revoke it so no unrecorded mandate can be charged.
 * The same customer racing with the same reference shares one idempotency key, hence one mandate:
 * that one is the winner's and stays.
 */
async function revokeLostMandate(
  ctx: AppContext,
  provider: PaymentProvider,
  providerCustomerId: string,
  row: MandateRow,
  reference: string,
): Promise<void> {
  const holder = await mandatesRepository.findByReference(ctx.db, row.account_id, reference);
  if (holder?.id === row.id) return;
  try {
    await provider.revokeMandate(providerCustomerId, row.id);
  } catch (error) {
    ctx.logger.error('could not revoke a mandate that lost its reference', {
      accountId: row.account_id,
      mandateId: row.id,
      error: errorMessage(error),
    });
  }
}

/**
 * Not payments' and customers' recovery points (createOrRecover) on purpose: no mandate row is
 * written before the provider is called (the row needs the provider's mandate), so there is no row
 * to keep or resume; the Idempotency-Key remembers the reference instead, and a retry looks the
 * mandate up by it in the customer's list at the provider, whatever its age, since a list has no
 * key window.
 *
 * The mandate a dead attempt of this request may have made: ours if it was recorded, else the
 * provider's with the reference the attempt used (its answer was lost), else none.
 */
async function mandateOfEarlierAttempt(
  ctx: AppContext,
  provider: PaymentProvider,
  customer: CustomerRow,
  providerCustomerId: string,
  reference: string,
) {
  const recorded = await mandatesRepository.findByReference(ctx.db, customer.account_id, reference);
  if (recorded) return { recorded };
  const made = (await provider.listMandates(providerCustomerId)).find(
    (mandate) => mandate.mandateReference?.toLowerCase() === reference.toLowerCase(),
  );
  return { made };
}

/**
 * Creates a SEPA direct-debit mandate at the provider and records it. The provider call carries a
 * key made of the customer and the reference, so a retried call gets the same mandate back instead
 * of a second one. With an Idempotency-Key the reference is remembered before the provider is
 * called: a retry after a lost answer uses the same reference, finds the mandate (ours, or at the
 * provider) and never makes a second one.
 */
export async function createMandate(
  ctx: AppContext,
  account: Account,
  customerId: string,
  input: CreateMandateInput,
  idempotency: IdempotencyScope = WITHOUT_IDEMPOTENCY_KEY,
): Promise<MandateRow> {
  const customer = await customersRepository.find(ctx.db, account.id, customerId);
  if (!customer) throw new NotFoundError('Customer');
  if (!customer.provider_customer_id) {
    throw new AppError(409, 'The customer is not known at the payment provider yet', 'customer_not_at_provider');
  }
  const provider = await ctx.providers.forAccount(account);
  const custom = input.custom_mandate_reference ?? null;
  let reference: string;
  let created: ProviderMandate | undefined;
  if (idempotency.resumedResourceId) {
    reference = idempotency.resumedResourceId;
    const earlier = await mandateOfEarlierAttempt(ctx, provider, customer, customer.provider_customer_id, reference);
    if (earlier.recorded) return earlier.recorded;
    created = earlier.made;
  } else {
    if (custom !== null && (await mandatesRepository.findByReference(ctx.db, account.id, custom))) throw referenceTaken();
    reference = custom ?? generateMandateReference();
    await idempotency.remember(ctx.db, reference);
  }

  const now = ctx.clock.now();
  const today = calendarDateIn(now, ctx.config.APP_TIMEZONE);
  created ??= await provider.createMandate(
    {
      customerId: customer.provider_customer_id,
      consumerName: input.consumer_name,
      consumerAccount: input.consumer_account,
      consumerBic: null,
      signatureDate: today,
      mandateReference: reference,
    },
    `mandate-${customer.id}-${reference}`,
  );
  const row = mandateRowFrom(created, {
    customer,
    origin: 'api',
    reference,
    customReference: custom !== null,
    now: toDbDateTime(now),
    today,
  });
  try {
    await ctx.db.transaction(async (trx) => {
      await mandatesRepository.insert(trx, row);
      await enqueueMandateEvent(trx, row, 'created', row.created_at);
    });
  } catch (error) {
    if (!isUniqueViolation(error) || custom === null) throw error;
    await revokeLostMandate(ctx, provider, customer.provider_customer_id, row, reference);
    throw referenceTaken();
  }
  return row;
}
