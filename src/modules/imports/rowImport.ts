import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { databaseRefusalCode, isUniqueViolation } from '../../db/connect';
import { AppError, errorMessage } from '../../errors';
import { newId } from '../../ids';
import { formatCents } from '../../money';
import type { PaymentProvider } from '../../providers';
import { CreationOutcomeUnknownError } from '../../providers/errors';
import type { ProviderMandate } from '../../providers/types';
import { calendarDateIn, toDbDateTime } from '../../time';
import { firstResumeAfter, resumeCustomer, sendCustomerToProvider } from '../customers/creation';
import { customersRepository, type CustomerRow } from '../customers/repository';
import { enqueueMandateEvent } from '../mandates/events';
import { mandatesRepository, type MandateRow } from '../mandates/repository';
import { mandateRowFrom, recordProviderMandate } from '../mandates/service';
import { planOf } from '../subscriptions/plan';
import { subscriptionsRepository, type SubscriptionRow } from '../subscriptions/repository';
import { effectiveRuleDay, scheduledCharge, startBeforeCharges, timesDoneBefore } from '../subscriptions/schedule';
import { newSubscription, type NewSubscription } from '../subscriptions/service';
import { importsRepository, type ImportItem, type RowOutcome } from './repository';
import type {
  CandidateCustomer,
  CandidateMandate,
  CandidateSubscription,
  ImportCandidate,
  ImportSource,
  ImportSourceName,
} from './sources';

/** What became of one candidate. */
export interface RowResult {
  outcome: RowOutcome;
  field: string | null;
  reason: string | null;
  customerId: string | null;
  subscriptionId: string | null;
}

/** The profile the account's own provider key is bound to (as for store orders and links). */
const OWN_PROFILE = 'default';

/** A row that cannot be imported: which field, and why. Thrown inside one row's work, caught per row. */
class RowFailure extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const result = (outcome: RowOutcome, fields: Partial<Omit<RowResult, 'outcome'>> = {}): RowResult => ({
  outcome,
  field: fields.field ?? null,
  reason: fields.reason ?? null,
  customerId: fields.customerId ?? null,
  subscriptionId: fields.subscriptionId ?? null,
});

/**
 * The subscription's rows, numbered on from the source's count: the schedule starts `timesDone`
 * periods before `nextDate`, so charge `timesDone + 1` falls on it and each rule's `times_done`
 * starts where the source stopped.
 */
function importedSubscription(
  account: Account,
  source: ImportSource,
  sourceId: string,
  wanted: CandidateSubscription,
  mandate: MandateRow,
  now: Date,
): NewSubscription {
  const day = effectiveRuleDay(wanted.interval, wanted.day, wanted.nextDate);
  const rule = { interval: wanted.interval, interval_amount: wanted.intervalAmount, day };
  const made = newSubscription(
    account,
    {
      name: wanted.description,
      customer_id: mandate.customer_id,
      provider_profile_id: OWN_PROFILE,
      provider_mandate_id: mandate.id,
      start_date: startBeforeCharges(rule, wanted.nextDate, wanted.timesDone),
      rules: [
        {
          amount: wanted.amount,
          interval: wanted.interval,
          interval_amount: wanted.intervalAmount,
          day,
          times: wanted.times,
          invoice_rules: wanted.invoicing && 'rules' in wanted.invoicing ? wanted.invoicing.rules : [],
        },
      ],
      workflow_id: null,
      docstyle_id: null,
    },
    mandate,
    now,
  );
  const plan = planOf(made.row, made.rules);
  const nextNumber = wanted.timesDone + 1;
  const next = scheduledCharge(plan, nextNumber);
  if (!next || next.date !== wanted.nextDate) {
    throw new RowFailure('next_date', `The next charge date ${wanted.nextDate} does not fall on the schedule's day ${day}.`);
  }
  const done = timesDoneBefore(plan, nextNumber);
  return {
    row: {
      ...made.row,
      next_charge_number: nextNumber,
      next_charge_date: next.date,
      next_payment_at: next.date,
      next_amount: next.amount,
      source: source.name,
      source_id: sourceId,
      // Billing waits while the source may still bill it (see ImportSource.handOver).
      handover_pending: source.handOver !== undefined,
      invoice_refusal: wanted.invoicing && 'refusal' in wanted.invoicing ? wanted.invoicing.refusal.slice(0, 255) : null,
    },
    rules: made.rules.map((made, index) => ({ ...made, times_done: done[index] ?? 0 })),
    invoiceRules: made.invoiceRules,
  };
}

/** What a row makes, in words without personal data: the report's reason for created and would_create. */
function planOfRow(mandate: CandidateMandate, wanted: CandidateSubscription): string {
  const every = wanted.intervalAmount === 1 ? wanted.interval : `${wanted.intervalAmount} ${wanted.interval}s`;
  const length = wanted.times === null ? 'until cancelled' : `charge ${wanted.timesDone + 1} of ${wanted.times}`;
  const onMandate =
    mandate.kind === 'sepa' ? `mandate ${mandate.reference} signed ${mandate.signatureDate}` : `mandate ${mandate.providerMandateId}`;
  return `${formatCents(wanted.amount)} EUR every ${every}, next ${wanted.nextDate} (${length}); ${onMandate}`;
}

/** Checks what can be checked without writing anything or calling the provider (a dry run stops here). */
async function checkCandidate(
  ctx: AppContext,
  account: Account,
  source: ImportSourceName,
  sourceId: string,
  mandate: CandidateMandate,
  wanted: CandidateSubscription,
): Promise<void> {
  const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  if (wanted.nextDate < today) throw new RowFailure('next_date', `The next charge date ${wanted.nextDate} is in the past.`);
  if (wanted.times !== null && wanted.timesDone >= wanted.times) {
    throw new RowFailure('times', `All ${wanted.times} charges were made at the source: nothing is left to import.`);
  }
  const day = effectiveRuleDay(wanted.interval, wanted.day, wanted.nextDate);
  const rule = { interval: wanted.interval, interval_amount: wanted.intervalAmount, day };
  const plan = {
    startDate: startBeforeCharges(rule, wanted.nextDate, wanted.timesDone),
    rules: [{ ...rule, amount: wanted.amount, times: wanted.times }],
  };
  if (scheduledCharge(plan, wanted.timesDone + 1)?.date !== wanted.nextDate) {
    throw new RowFailure('next_date', `The next charge date ${wanted.nextDate} does not fall on the schedule's day ${day}.`);
  }
  if (mandate.kind === 'sepa') {
    const recorded = await mandatesRepository.findByReference(ctx.db, account.id, mandate.reference);
    const item = await importsRepository.findItem(ctx.db, account.id, source, sourceId);
    if (recorded && recorded.customer_id !== item?.customer_id) {
      throw new RowFailure('reference', 'The mandate reference is already used by another customer.');
    }
  }
}

/**
 * Our customer for the row: the import item (written with the customer row, before the provider
 * is called) finds the one an earlier run made; a customer the provider already holds is reused.
 */
async function ensureCustomer(
  ctx: AppContext,
  account: Account,
  provider: PaymentProvider,
  source: ImportSourceName,
  sourceId: string,
  wanted: CandidateCustomer,
): Promise<CustomerRow> {
  const item = await importsRepository.findItem(ctx.db, account.id, source, sourceId);
  const earlier = item && (await customersRepository.find(ctx.db, account.id, item.customer_id));
  if (earlier) return resumeCustomer(ctx, account, earlier);
  const known = wanted.providerCustomerId
    ? await customersRepository.findByProviderCustomerId(ctx.db, account.id, wanted.providerCustomerId)
    : undefined;
  const now = ctx.clock.now();
  const stamp = toDbDateTime(now);
  const customer: CustomerRow = known ?? {
    id: newId('cus'),
    account_id: account.id,
    number: null,
    first_name: wanted.firstName,
    last_name: wanted.lastName,
    email: wanted.email,
    phone: null,
    organization_name: null,
    address: null,
    postal_code: null,
    city: null,
    country: null,
    vat_number: null,
    locale: wanted.locale,
    provider_customer_id: wanted.providerCustomerId,
    next_attempt_at: wanted.providerCustomerId ? null : firstResumeAfter(now),
    create_attempts: 0,
    created_at: stamp,
    updated_at: stamp,
  };
  const itemRow: ImportItem = {
    account_id: account.id,
    source,
    source_id: sourceId,
    customer_id: customer.id,
    mandate_id: null,
    created_at: stamp,
    updated_at: stamp,
  };
  await ctx.db.transaction(async (trx) => {
    if (!known) await customersRepository.insert(trx, customer);
    if (item) await importsRepository.updateItem(trx, item, { customer_id: customer.id, mandate_id: null, updated_at: stamp });
    else await importsRepository.insertItem(trx, itemRow);
  });
  if (customer.provider_customer_id) return customer;
  return sendCustomerToProvider(ctx, provider, customer, { resumed: false });
}

/** Records the mandate for the customer and on the import item, in one transaction. */
async function recordMandate(
  ctx: AppContext,
  item: Pick<ImportItem, 'account_id' | 'source' | 'source_id'>,
  row: MandateRow,
): Promise<MandateRow> {
  await ctx.db.transaction(async (trx) => {
    await mandatesRepository.insert(trx, row);
    await enqueueMandateEvent(trx, row, 'created', row.created_at);
    await importsRepository.updateItem(trx, item, { mandate_id: row.id, updated_at: row.created_at });
  });
  return row;
}

/**
 * A SEPA mandate signed elsewhere, made at the provider with its reference and signature date.
 * Never twice: ours first (recorded under the reference), else the provider's with that reference
 * (an earlier answer was lost), else created with a key made of our customer and the reference.
 */
async function ensureSepaMandate(
  ctx: AppContext,
  provider: PaymentProvider,
  customer: CustomerRow,
  item: Pick<ImportItem, 'account_id' | 'source' | 'source_id'>,
  wanted: Extract<CandidateMandate, { kind: 'sepa' }>,
): Promise<MandateRow> {
  const recorded = await mandatesRepository.findByReference(ctx.db, customer.account_id, wanted.reference);
  if (recorded) {
    if (recorded.customer_id !== customer.id)
      throw new RowFailure('reference', 'The mandate reference is already used by another customer.');
    await importsRepository.updateItem(ctx.db, item, { mandate_id: recorded.id });
    return recorded;
  }
  const providerCustomerId = customer.provider_customer_id as string;
  const reference = wanted.reference.toLowerCase();
  const made =
    (await provider.listMandates(providerCustomerId)).find((mandate) => mandate.mandateReference?.toLowerCase() === reference) ??
    (await provider.createMandate(
      {
        customerId: providerCustomerId,
        consumerName: wanted.consumerName,
        consumerAccount: wanted.iban,
        consumerBic: null,
        signatureDate: wanted.signatureDate,
        mandateReference: wanted.reference,
      },
      `import-mandate-${customer.id}-${wanted.reference}`,
    ));
  const now = ctx.clock.now();
  const row = mandateRowFrom(made, {
    customer,
    origin: 'import',
    reference: wanted.reference,
    customReference: true,
    now: toDbDateTime(now),
    today: wanted.signatureDate,
  });
  return recordMandate(ctx, item, row);
}

/** The provider's mandate of that customer, when it is valid there. */
async function checkExistingMandate(
  provider: PaymentProvider,
  providerCustomerId: string,
  providerMandateId: string,
): Promise<ProviderMandate> {
  const mandate = await provider.getMandate(providerCustomerId, providerMandateId);
  if (mandate.status !== 'valid') throw new RowFailure('mandate', `The mandate is ${mandate.status} at the provider.`);
  return mandate;
}

/** A mandate the provider already holds for the customer: it must be valid there. */
async function ensureExistingMandate(
  ctx: AppContext,
  provider: PaymentProvider,
  customer: CustomerRow,
  providerMandateId: string,
): Promise<MandateRow> {
  const recorded = await mandatesRepository.find(ctx.db, customer.account_id, providerMandateId);
  if (recorded) {
    if (recorded.customer_id !== customer.id) throw new RowFailure('mandate', 'The mandate is recorded for another customer.');
    return recorded;
  }
  const mandate = await checkExistingMandate(provider, customer.provider_customer_id as string, providerMandateId);
  const now = ctx.clock.now();
  await ctx.db.transaction((trx) =>
    recordProviderMandate(
      trx,
      customer,
      mandate,
      { now: toDbDateTime(now), today: calendarDateIn(now, ctx.config.APP_TIMEZONE) },
      'import',
    ),
  );
  const row = await mandatesRepository.find(ctx.db, customer.account_id, providerMandateId);
  if (!row) throw new Error(`Mandate ${providerMandateId} was recorded but cannot be read back`);
  return row;
}

/** Which part of the row a provider error belongs to, and the sentence the report shows. */
function failureOf(error: unknown, field: string): RowResult {
  if (error instanceof RowFailure) return result('failed', { field: error.field, reason: error.message });
  if (error instanceof CreationOutcomeUnknownError) {
    return result('failed', { field, reason: 'The provider did not confirm it; run the import again to finish this row.' });
  }
  if (error instanceof AppError) return result('failed', { field, reason: error.message });
  // The database refused this row's write (rolled back with its transaction): this row fails, the run goes on.
  const refusal = databaseRefusalCode(error);
  if (refusal) return result('failed', { field, reason: `The database refused it (${refusal}); run the import again once that is fixed.` });
  throw error;
}

/** A row's reason and what the hand-over said, within the report's 500 characters. */
const withNote = (reason: string, note: string | undefined): string =>
  (note ? `${reason.replace(/\.$/, '')}; ${note}` : reason).slice(0, 500);

/**
 * Asks the source to stop billing the subscription ours now holds, and lets billing charge it once
 * it has (`handover_pending` cleared). Waiting or failing keeps it pending: the next run asks again.
 */
async function handOverRow(
  ctx: AppContext,
  account: Account,
  provider: PaymentProvider,
  source: ImportSource,
  candidate: ImportCandidate,
  subscription: SubscriptionRow,
  done: RowResult,
): Promise<RowResult> {
  if (!source.handOver) return done;
  try {
    const handed = await source.handOver(ctx, account, provider, candidate, subscription);
    if (!handed.done && handed.held) {
      // Not a failure a run again fixes: the merchant decides (ours stays pending, charged by nobody).
      return result('failed', {
        field: 'handover',
        reason: withNote(`Held: ${handed.note}`, undefined),
        customerId: subscription.customer_id,
        subscriptionId: subscription.id,
      });
    }
    if (!handed.done) return { ...done, reason: withNote(done.reason ?? '', `hand-over waits: ${handed.note}`) };
    await subscriptionsRepository.update(ctx.db, subscription, {
      handover_pending: false,
      updated_at: toDbDateTime(ctx.clock.now()),
    });
    return { ...done, reason: withNote(done.reason ?? '', handed.note ?? 'handed over') };
  } catch (error) {
    // Whatever went wrong, ours stays pending (billing charges none of it) and the next run asks again.
    const message = errorMessage(error);
    return result('failed', {
      field: error instanceof RowFailure ? error.field : 'handover',
      reason: withNote(`Imported, but the source still bills it: ${message}`, 'run the import again to hand it over'),
      customerId: subscription.customer_id,
      subscriptionId: subscription.id,
    });
  }
}

/**
 * One candidate, idempotently: a subscription already imported from this source id is left as it
 * is; otherwise customer, mandate and subscription are made (or found, when an earlier run made
 * them before it stopped). A dry run writes nothing and calls no provider.
 */
export async function importCandidate(
  ctx: AppContext,
  account: Account,
  provider: PaymentProvider,
  importSource: ImportSource,
  candidate: ImportCandidate,
  dryRun: boolean,
): Promise<RowResult> {
  const source = importSource.name;
  // Imported before wins over what the source says now (a start date since passed, say): the row is done,
  // but for a hand-over that did not finish (a crash, a refusal, a charge the source made first).
  const existing = await importsRepository.subscriptionFromSource(ctx.db, account.id, source, candidate.sourceId);
  if (existing) {
    const before = result('exists', { reason: 'Imported before.', customerId: existing.customer_id, subscriptionId: existing.id });
    if (!existing.handover_pending) return before;
    if (dryRun) return { ...before, reason: 'Imported before; the source still bills it: the run hands it over.' };
    return handOverRow(ctx, account, provider, importSource, candidate, existing, before);
  }
  if (candidate.invalid) return result('failed', { field: candidate.invalid.field, reason: candidate.invalid.message });
  if (candidate.skipReason) return result(dryRun ? 'would_skip' : 'skipped', { reason: candidate.skipReason });
  const { customer: wantedCustomer, mandate: wantedMandate, subscription: wanted } = candidate;
  if (!wantedCustomer) return result('failed', { field: 'customer', reason: 'The source names no customer.' });
  if (!wantedMandate) return result('failed', { field: 'mandate', reason: 'The source names no mandate.' });
  if (!wanted) return result('failed', { field: 'subscription', reason: 'The source names no subscription.' });
  try {
    await checkCandidate(ctx, account, source, candidate.sourceId, wantedMandate, wanted);
  } catch (error) {
    return failureOf(error, 'subscription');
  }
  const plan = planOfRow(wantedMandate, wanted);
  if (dryRun) {
    // Asking is harmless: a dry run plans what the run will do with the mandate as the provider holds it now.
    if (wantedMandate.kind === 'existing' && wantedCustomer.providerCustomerId) {
      try {
        await checkExistingMandate(provider, wantedCustomer.providerCustomerId, wantedMandate.providerMandateId);
      } catch (error) {
        return failureOf(error, 'mandate');
      }
    }
    return result('would_create', { reason: withNote(plan, candidate.dryRunNote) });
  }

  let customer: CustomerRow;
  try {
    customer = await ensureCustomer(ctx, account, provider, source, candidate.sourceId, wantedCustomer);
  } catch (error) {
    return failureOf(error, 'customer');
  }
  const item = { account_id: account.id, source, source_id: candidate.sourceId };
  let mandate: MandateRow;
  try {
    mandate =
      wantedMandate.kind === 'sepa'
        ? await ensureSepaMandate(ctx, provider, customer, item, wantedMandate)
        : await ensureExistingMandate(ctx, provider, customer, wantedMandate.providerMandateId);
  } catch (error) {
    return { ...failureOf(error, 'mandate'), customerId: customer.id };
  }
  let made: NewSubscription;
  try {
    made = importedSubscription(account, importSource, candidate.sourceId, wanted, mandate, ctx.clock.now());
    const { row, rules, invoiceRules } = made;
    await ctx.db.transaction((trx) => subscriptionsRepository.insertWithRules(trx, row, rules, invoiceRules));
  } catch (error) {
    if (isUniqueViolation(error)) {
      // A concurrent run of the same import made it first: the database keeps one (and hands it over).
      const other = await importsRepository.subscriptionFromSource(ctx.db, account.id, source, candidate.sourceId);
      if (other) return result('exists', { reason: 'Imported before.', customerId: other.customer_id, subscriptionId: other.id });
    }
    return { ...failureOf(error, 'subscription'), customerId: customer.id };
  }
  // Ours holds the next charge now: only then is the source told to stop.
  const created = result('created', { reason: plan, customerId: customer.id, subscriptionId: made.row.id });
  return handOverRow(ctx, account, provider, importSource, candidate, made.row, created);
}
