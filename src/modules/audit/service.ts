import type { AppContext } from '../../context';
import { STORE_SUBSCRIPTIONS_IMPORT } from '../../integrations';
import { PROVIDER_SUBSCRIPTIONS_IMPORT } from '../../providers';
import { ProviderNotFoundError } from '../../providers/errors';
import type { PaymentProvider, ProviderPayment } from '../../providers/types';
import { addDays, addMonths, formatCalendarDate, parseCalendarDate } from '../../time/calendar';
import { calendarDateIn, formatDate, fromDbDateTime, instantAtEpochMs, instantFromZonedDateTime, msBefore, toDbDateTime } from '../../time';
import { NotFoundError, errorMessage } from '../../errors';
import { newId } from '../../ids';
import { enqueueAccountEvent } from '../../events/events';
import {
  auditRepository,
  type AuditCharge,
  type AuditCreditNote,
  type AuditInvoice,
  type AuditPayment,
  type AuditReportRow,
  type AuditRefund,
  type AuditScope,
  type AuditSubscription,
} from './repository';

/**
 * The ledger audit (issue 36): the books checked against themselves and against the provider. Each invariant is a
 * rule below; a broken one is a violation naming the rows involved. What the service allows (a failed charge and its
 * retries, skipped and paused periods, refunds, chargebacks, an invoice not issued with its reason, an invoice still
 * owed for less than a day, a gap the merchant made in a series) is never a violation: it is a to-do or a note.
 */

export const INVARIANTS = [
  'provider_payment_attached',
  'one_charge_per_period',
  'no_charge_after_end',
  'invoice_of_paid_charge',
  'credit_note_of_money_back',
  'refunds_within_paid',
  'refunds_match_provider',
  'mandate_revoked_in_use',
  'document_numbers',
] as const;
export type Invariant = (typeof INVARIANTS)[number];

export interface AuditFinding {
  invariant: Invariant;
  message: string;
  /** The rows involved: our ids (`pay_…`, `sub_…`, `chg_…`, `ivc_…`) and the provider's (`tr_…`, `sub_…`, `mdt_…`). */
  rows: string[];
}

export interface AuditReport {
  account: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC; null for the whole history. */
  since: string | null;
  checked_at: string;
  violations: AuditFinding[];
  /** The merchant's to do, not a fault: an invoice not issued (with its reason), one still owed, a payment still being made. */
  todos: AuditFinding[];
  /** Said for the record: numbers the merchant skipped by moving a series' next number up. */
  notes: AuditFinding[];
}

/** How long after a payment is paid its invoice may still be owed (issued apart, with retries). */
export const INVOICE_OWED_FOR_MS = 24 * 60 * 60 * 1000;
/** Statuses of a payment that is (or may still become) money taken. */
const UNDER_WAY = new Set(['open', 'pending', 'authorized']);
const MONEY_TAKEN = new Set(['paid', 'refunded', 'charged_back']);
/** Refund statuses that gave the money back to us (nothing went to the payer). */
const RELEASED = new Set(['failed', 'canceled']);
/** The import source whose subscriptions the provider billed before us (see subscriptions/sourceNames.ts). */
const PROVIDER_SUBSCRIPTIONS_SOURCE = PROVIDER_SUBSCRIPTIONS_IMPORT.sourceName;
/** Our gateway in the store: a renewal order paid through another was billed by the store's extension. */
const OUR_GATEWAY = STORE_SUBSCRIPTIONS_IMPORT.ourGateway;

interface Findings {
  violation(invariant: Invariant, message: string, rows: string[]): void;
  todo(invariant: Invariant, message: string, rows: string[]): void;
  note(invariant: Invariant, message: string, rows: string[]): void;
}

interface Books {
  ctx: AppContext;
  scope: AuditScope;
  provider: PaymentProvider;
  now: Date;
  timeZone: string;
  payments: Map<string, AuditPayment>;
  /** What went back of each payment per our refunds: settled (`refunded`) and not released (everything but failed/canceled). */
  refunded: Map<string, { settled: number; reserved: number; creating: boolean }>;
  /** The provider's payments listed since the scope's start, by their id. */
  providerPayments: Map<string, ProviderPayment>;
}

/** Runs every rule for one account; reads the provider (its payments since `since`, subscriptions where needed). */
export async function auditAccount(ctx: AppContext, account: { id: string; name: string }, since: Date | null): Promise<AuditReport> {
  const now = ctx.clock.now();
  const scope: AuditScope = { accountId: account.id, since: since ? toDbDateTime(since) : null };
  const report: AuditReport = {
    account: account.name,
    since: scope.since,
    checked_at: toDbDateTime(now),
    violations: [],
    todos: [],
    notes: [],
  };
  const findings: Findings = {
    violation: (invariant, message, rows) => report.violations.push({ invariant, message, rows }),
    todo: (invariant, message, rows) => report.todos.push({ invariant, message, rows }),
    note: (invariant, message, rows) => report.notes.push({ invariant, message, rows }),
  };
  const provider = await ctx.providers.forAccount(account);
  const payments = new Map((await auditRepository.payments(ctx.db, scope)).map((row) => [row.id, row]));
  const books: Books = {
    ctx,
    scope,
    provider,
    now,
    timeZone: ctx.config.APP_TIMEZONE,
    payments,
    refunded: new Map(),
    providerPayments: new Map(),
  };
  await checkProviderPayments(books, findings);
  await checkRefunds(books, findings);
  await checkPeriods(books, findings);
  await checkMandates(books, findings);
  await checkDocumentNumbers(books, findings);
  return report;
}

// ---------------------------------------------------------------------------------------------------------------
// Every provider payment carrying our reference is attached to exactly one of our payments.

async function checkProviderPayments(books: Books, findings: Findings): Promise<void> {
  const byReference = new Map<string, ProviderPayment[]>();
  let cursor: string | undefined;
  const since = books.scope.since ? fromDbDateTime(books.scope.since) : instantAtEpochMs(0);
  do {
    const page = await books.provider.listPayments(since, cursor);
    for (const payment of page.payments) {
      books.providerPayments.set(payment.id, payment);
      if (payment.reference) byReference.set(payment.reference, [...(byReference.get(payment.reference) ?? []), payment]);
    }
    cursor = page.next ?? undefined;
  } while (cursor);
  const ours = new Map(
    (await auditRepository.paymentsByIds(books.ctx.db, books.scope.accountId, [...byReference.keys()])).map((row) => [row.id, row]),
  );
  const unknown = [...byReference.keys()].filter((reference) => !ours.has(reference));
  const elsewhere = await auditRepository.paymentsOfOtherAccounts(books.ctx.db, books.scope.accountId, unknown);
  for (const [reference, listed] of byReference) {
    const ids = listed.map((payment) => payment.id);
    const row = ours.get(reference);
    if (!row && elsewhere.has(reference)) {
      findings.note(
        'provider_payment_attached',
        `provider payment ${ids.join(', ')} is another account's: it shares this provider account`,
        ids,
      );
      continue;
    }
    if (!row) {
      findings.violation(
        'provider_payment_attached',
        `provider payment ${ids.join(', ')} carries our reference ${reference}, which is none of our payments`,
        [...ids, reference],
      );
      continue;
    }
    if (listed.length > 1) {
      findings.violation(
        'provider_payment_attached',
        `${listed.length} provider payments (${ids.join(', ')}) carry the reference of one payment of ours, ${reference}`,
        [reference, ...ids],
      );
      continue;
    }
    if (row.provider_payment_id === null) {
      findings.todo('provider_payment_attached', `payment ${reference} is still being made: ${ids[0]} will be attached to it`, [
        reference,
        ...ids,
      ]);
    } else if (row.provider_payment_id !== ids[0]) {
      findings.violation(
        'provider_payment_attached',
        `provider payment ${ids[0]} carries the reference of ${reference}, which is attached to ${row.provider_payment_id}`,
        [reference, ...ids, row.provider_payment_id],
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Refunds: within what was paid minus charged back, equal to the provider's; one credit note each (and per chargeback).

async function checkRefunds(books: Books, findings: Findings): Promise<void> {
  const { ctx, scope } = books;
  const recent = await auditRepository.refunds(ctx.db, scope);
  const chargedBack = [...books.payments.values()].filter(
    (payment) => payment.amount_charged_back > 0 || payment.status === 'charged_back',
  );
  const refundedAtProvider = [...books.providerPayments.values()].filter((payment) => payment.reference && payment.amountRefunded > 0);
  const paymentIds = [
    ...new Set([
      ...recent.map((refund) => refund.payment_id),
      ...chargedBack.map((payment) => payment.id),
      ...refundedAtProvider.map((payment) => payment.reference ?? ''),
    ]),
  ];
  const missing = paymentIds.filter((id) => !books.payments.has(id));
  for (const row of await auditRepository.paymentsWithIds(ctx.db, scope.accountId, missing)) books.payments.set(row.id, row);
  const refunds = await auditRepository.refundsOfPayments(ctx.db, scope.accountId, paymentIds);
  const invoices = (await auditRepository.invoicesOfPayments(ctx.db, scope.accountId, paymentIds)).filter(
    (invoice) => invoice.status === 'issued' && invoice.number !== null,
  );
  const notes = await auditRepository.creditNotes(ctx.db, { accountId: scope.accountId, since: null });
  const notesBySource = new Map(notes.map((note) => [note.source_key, note]));
  const invoicesById = new Map(invoices.map((invoice) => [invoice.id, invoice]));
  const refundsOf = groupBy(refunds, (refund) => refund.payment_id);

  for (const paymentId of paymentIds) {
    const payment = books.payments.get(paymentId);
    if (!payment) continue; // a reference that is none of ours: reported above
    const own = refundsOf.get(paymentId) ?? [];
    const settled = sum(own.filter((refund) => refund.status === 'refunded').map((refund) => refund.amount));
    const reserved = sum(own.filter((refund) => !RELEASED.has(refund.status)).map((refund) => refund.amount));
    const creating = own.some((refund) => refund.status === 'creating');
    books.refunded.set(paymentId, { settled, reserved, creating });
    const ids = own.map((refund) => refund.id);
    if (reserved > payment.amount - payment.amount_charged_back)
      findings.violation(
        'refunds_within_paid',
        `payment ${paymentId}: refunds of ${cents(reserved)} exceed what was paid (${cents(payment.amount)}) ` +
          `minus charged back (${cents(payment.amount_charged_back)})`,
        [paymentId, ...ids],
      );
    await checkProviderRefunded(books, findings, payment, { settled, reserved, creating }, ids);
    const invoiced = invoices.some((invoice) => invoice.payment_id === paymentId);
    if (!invoiced) continue;
    for (const refund of own.filter((row) => row.status === 'refunded')) checkCreditNote(findings, refund, notesBySource, invoicesById);
    if (payment.amount_charged_back > 0 || payment.status === 'charged_back') {
      if (!notesBySource.has(`chargeback-${paymentId}`))
        findings.violation('credit_note_of_money_back', `payment ${paymentId} was charged back, its invoice has no credit note for it`, [
          paymentId,
          ...invoices.filter((invoice) => invoice.payment_id === paymentId).map((invoice) => invoice.id),
        ]);
    }
  }
  // A credit note for a refund that gave nothing back (failed, canceled, unknown) credits money that never went.
  const refundsById = new Map(refunds.map((refund) => [refund.id, refund]));
  const scopedNotes = scope.since ? notes.filter((note) => note.created_at >= (scope.since ?? '')) : notes;
  for (const note of scopedNotes.filter((row) => row.source_key.startsWith('refund-'))) {
    const refundId = note.source_key.slice('refund-'.length);
    const refund = refundsById.get(refundId) ?? (await refundOf(books, refundId, note.payment_id));
    if (!refund || refund.status !== 'refunded')
      findings.violation(
        'credit_note_of_money_back',
        `credit note ${note.number} (${note.id}) credits refund ${refundId}, which ${refund ? `is ${refund.status}` : 'does not exist'}`,
        [note.id, refundId, note.payment_id],
      );
  }
}

async function refundOf(books: Books, refundId: string, paymentId: string): Promise<AuditRefund | undefined> {
  return (await auditRepository.refundsOfPayments(books.ctx.db, books.scope.accountId, [paymentId])).find(
    (refund) => refund.id === refundId,
  );
}

/** A settled refund's credit note: exactly one, for what was refunded (at most the invoice's total). */
function checkCreditNote(
  findings: Findings,
  refund: AuditRefund,
  notesBySource: Map<string, AuditCreditNote>,
  invoices: Map<string, AuditInvoice>,
) {
  const note = notesBySource.get(`refund-${refund.id}`);
  if (!note) {
    findings.violation(
      'credit_note_of_money_back',
      `refund ${refund.id} of ${cents(refund.amount)} on ${refund.payment_id} has no credit note`,
      [refund.id, refund.payment_id],
    );
    return;
  }
  const invoice = invoices.get(note.invoice_id);
  const expected = invoice ? Math.min(refund.amount, invoice.total_including_vat) : refund.amount;
  if (-note.total_including_vat !== expected || !documentAddsUp(note))
    findings.violation(
      'credit_note_of_money_back',
      `credit note ${note.number} (${note.id}) credits ${cents(-note.total_including_vat)}, ` +
        `refund ${refund.id} gave back ${cents(expected)}` +
        (documentAddsUp(note) ? '' : '; its lines do not add up to its totals'),
      [note.id, refund.id, refund.payment_id],
    );
}

/** What the provider says went back of the payment against our refunds: at least what settled, at most what we asked. */
async function checkProviderRefunded(
  books: Books,
  findings: Findings,
  payment: AuditPayment,
  ours: { settled: number; reserved: number; creating: boolean },
  refundIds: string[],
): Promise<void> {
  if (!payment.provider_payment_id || ours.creating) return; // a refund under way: its outcome is not known yet
  const atProvider =
    books.providerPayments.get(payment.provider_payment_id) ??
    (await orNullWhenGone(books.provider.getPayment(payment.provider_payment_id)));
  if (!atProvider) {
    findings.todo(
      'refunds_match_provider',
      `payment ${payment.id}: the provider has no ${payment.provider_payment_id} (another provider since?)`,
      [payment.id, payment.provider_payment_id],
    );
    return;
  }
  const refunded = atProvider.amountRefunded;
  if (refunded < ours.settled || refunded > ours.reserved)
    findings.violation(
      'refunds_match_provider',
      `payment ${payment.id}: the provider refunded ${cents(refunded)} of ${payment.provider_payment_id}, ` +
        `our refunds ${cents(ours.settled)}` +
        (ours.reserved !== ours.settled ? ` settled and ${cents(ours.reserved)} asked` : ''),
      [payment.id, payment.provider_payment_id, ...refundIds],
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Periods: one charge each (other billers counted), none after the end or in a pause, each paid one invoiced.

interface Period {
  charge: AuditCharge;
  subscription: AuditSubscription;
  start: string;
  /** The first day of the next period. */
  end: string;
  payments: AuditPayment[];
}

async function checkPeriods(books: Books, findings: Findings): Promise<void> {
  const { ctx, scope } = books;
  const charges = await auditRepository.charges(ctx.db, scope);
  if (!charges.length) return;
  const subscriptions = new Map((await auditRepository.subscriptions(ctx.db, scope.accountId)).map((row) => [row.id, row]));
  const rules = new Map((await auditRepository.rules(ctx.db, scope.accountId)).map((row) => [row.id, row]));
  const followUps = await auditRepository.followUps(ctx.db, scope.accountId);
  const pauses = groupBy(await auditRepository.pauses(ctx.db, scope.accountId), (pause) => pause.subscription_id);
  // Payments of the charges that were made before `since` (a period due since may have been charged early).
  const named = charges.map((charge) => charge.payment_id).filter((id): id is string => id !== null && !books.payments.has(id));
  for (const row of await auditRepository.paymentsWithIds(ctx.db, scope.accountId, named)) books.payments.set(row.id, row);
  const byPurpose = groupBy([...books.payments.values()], (payment) => `${payment.purpose}:${payment.purpose_id ?? ''}`);
  const followUpsOf = groupBy(followUps, (row) => row.payment_id ?? '');

  const periods: Period[] = [];
  for (const [subscriptionId, own] of groupBy(charges, (charge) => charge.subscription_id)) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) continue;
    own.forEach((charge, index) => {
      const next = own[index + 1];
      const rule = rules.get(charge.rule_id);
      const start = formatDate(charge.due_date);
      const end = next
        ? formatDate(next.due_date)
        : rule
          ? afterInterval(start, rule.interval, rule.interval_amount)
          : afterInterval(start, 'month', 1);
      periods.push({ charge, subscription, start, end, payments: paymentsOfCharge(charge, books, byPurpose, followUpsOf) });
    });
  }
  const refundedOf = await refundedAmounts(
    books,
    periods.flatMap((period) => period.payments.map((payment) => payment.id)),
  );
  for (const period of periods) {
    const charging = period.payments.filter((payment) => charges_(payment, refundedOf.get(payment.id) ?? 0));
    if (charging.length > 1)
      findings.violation(
        'one_charge_per_period',
        `subscription ${period.subscription.id}: the period from ${period.start} (charge ${period.charge.id}) ` +
          `is charged ${charging.length} times: ` +
          charging.map((payment) => `${payment.id} ${payment.status} ${cents(payment.amount)}`).join(', '),
        [period.subscription.id, period.charge.id, ...charging.map((payment) => payment.id)],
      );
    checkAfterEnd(findings, period, pauses.get(period.subscription.id) ?? []);
    await checkInvoice(books, findings, period);
  }
  await checkOtherBillers(books, findings, periods, refundedOf);
}

/** The payments that charge a period: its own, and the retries and links of the follow-ups of a failed one. */
function paymentsOfCharge(
  charge: AuditCharge,
  books: Books,
  byPurpose: Map<string, AuditPayment[]>,
  followUpsOf: Map<string, Array<{ id: string; link_id: string | null }>>,
): AuditPayment[] {
  const found = new Map<string, AuditPayment>();
  const own = charge.payment_id ? books.payments.get(charge.payment_id) : undefined;
  for (const payment of [...(own ? [own] : []), ...(byPurpose.get(`charge:${charge.id}`) ?? [])]) found.set(payment.id, payment);
  for (const payment of [...found.values()])
    for (const followUp of followUpsOf.get(payment.id) ?? []) {
      for (const retry of byPurpose.get(`follow-up:${followUp.id}`) ?? []) found.set(retry.id, retry);
      if (followUp.link_id) for (const paid of byPurpose.get(`link:${followUp.link_id}`) ?? []) found.set(paid.id, paid);
    }
  return [...found.values()];
}

/** A payment that charges its period: one under way, or money taken that was not all given back. */
function charges_(payment: AuditPayment, refunded: number): boolean {
  if (UNDER_WAY.has(payment.status)) return true;
  return MONEY_TAKEN.has(payment.status) && payment.amount - refunded - payment.amount_charged_back > 0;
}

/** What was given back (or is on its way back) of each payment by our refunds. */
async function refundedAmounts(books: Books, paymentIds: string[]): Promise<Map<string, number>> {
  const unknown = paymentIds.filter((id) => !books.refunded.has(id));
  const refunds = await auditRepository.refundsOfPayments(books.ctx.db, books.scope.accountId, unknown);
  const amounts = new Map<string, number>();
  for (const [id, known] of books.refunded) amounts.set(id, known.reserved);
  for (const refund of refunds.filter((row) => !RELEASED.has(row.status)))
    amounts.set(refund.payment_id, (amounts.get(refund.payment_id) ?? 0) + refund.amount);
  return amounts;
}

/** No period charged from a subscription's end (its `cancel_at`) on, nor one dated in a pause taken before it was charged. */
function checkAfterEnd(
  findings: Findings,
  period: Period,
  pauses: Array<{ from_date: string; until_date: string | null; kind: string; created_at: string }>,
) {
  const made = period.payments.filter((payment) => payment.provider_payment_id !== null || payment.status !== 'open');
  if (!made.length) return;
  const { subscription, charge } = period;
  const cancelAt = subscription.cancel_at ? formatDate(subscription.cancel_at) : null;
  // Cancelled today, the day's charge made in the morning is allowed: only a period after the end date is wrong.
  if (cancelAt && period.start > cancelAt)
    findings.violation(
      'no_charge_after_end',
      `subscription ${subscription.id} ends on ${cancelAt}, ` +
        `its period from ${period.start} was charged (${made.map((p) => p.id).join(', ')})`,
      [subscription.id, charge.id, ...made.map((payment) => payment.id)],
    );
  for (const pause of pauses) {
    const from = formatDate(pause.from_date);
    const until = pause.until_date ? formatDate(pause.until_date) : null;
    if (period.start < from || (until !== null && period.start >= until)) continue;
    const after = made.filter((payment) => payment.created_at > pause.created_at);
    if (after.length)
      findings.violation(
        'no_charge_after_end',
        `subscription ${subscription.id} is paused (${pause.kind}) from ${from}${until ? ` until ${until}` : ''}, ` +
          `its period from ${period.start} ` +
          `was charged after that (${after.map((p) => p.id).join(', ')})`,
        [subscription.id, charge.id, ...after.map((payment) => payment.id)],
      );
  }
}

/** A paid period's invoice: exactly one whose totals are what was charged, or not issued with a reason, or owed < 1 day. */
async function checkInvoice(books: Books, findings: Findings, period: Period): Promise<void> {
  const paid = period.payments.filter((payment) => MONEY_TAKEN.has(payment.status) && payment.paid_at !== null);
  if (period.charge.status !== 'paid' && !paid.length) return;
  const invoices = await invoicesOfPeriod(books, period, paid);
  const { charge, subscription } = period;
  if (!invoices.length) {
    const paidAt = paid.map((payment) => payment.paid_at ?? '').sort()[0];
    const rows = [subscription.id, charge.id, ...paid.map((payment) => payment.id)];
    if (paidAt && books.now.getTime() - fromDbDateTime(paidAt).getTime() < INVOICE_OWED_FOR_MS)
      findings.todo('invoice_of_paid_charge', `charge ${charge.id} paid at ${paidAt} UTC: its invoice is still owed`, rows);
    else
      findings.violation(
        'invoice_of_paid_charge',
        `charge ${charge.id} of subscription ${subscription.id} was paid and has no invoice`,
        rows,
      );
    return;
  }
  const own = invoices.filter((invoice) => invoice.charge_id === charge.id);
  if (own.length > 1)
    findings.violation('invoice_of_paid_charge', `charge ${charge.id} has ${own.length} invoices`, [
      charge.id,
      ...own.map((invoice) => invoice.id),
    ]);
  for (const invoice of invoices) {
    if (invoice.status === 'not_issued') {
      if (invoice.not_issued_reason)
        findings.todo(
          'invoice_of_paid_charge',
          `invoice ${invoice.id} of charge ${charge.id} is not issued: ${invoice.not_issued_reason}`,
          [invoice.id, charge.id, invoice.payment_id],
        );
      else findings.violation('invoice_of_paid_charge', `invoice ${invoice.id} is not issued and says not why`, [invoice.id, charge.id]);
      continue;
    }
    const problem = invoiceProblem(invoice, invoice.charge_id === charge.id ? charge.amount : null);
    if (problem)
      findings.violation('invoice_of_paid_charge', `invoice ${invoice.number ?? ''} (${invoice.id}) of charge ${charge.id}: ${problem}`, [
        invoice.id,
        charge.id,
        invoice.payment_id,
      ]);
  }
}

async function invoicesOfPeriod(books: Books, period: Period, paid: AuditPayment[]): Promise<AuditInvoice[]> {
  const ids = [...new Set([...(period.charge.payment_id ? [period.charge.payment_id] : []), ...paid.map((payment) => payment.id)])];
  const invoices = await auditRepository.invoicesOfPayments(books.ctx.db, books.scope.accountId, ids);
  // The charge's own invoice, else one of a payment that paid it (an order's invoice, a period paid again).
  const own = invoices.filter((invoice) => invoice.charge_id === period.charge.id);
  return own.length
    ? own
    : invoices.filter((invoice) => invoice.charge_id === null && paid.some((payment) => payment.id === invoice.payment_id));
}

/** Why an issued invoice is wrong: totals that are not its lines, VAT that is not its rate, an amount that is not the charge. */
export function invoiceProblem(
  document: { lines: string; total_excluding_vat: number; total_vat: number; total_including_vat: number },
  charged: number | null,
): string | null {
  if (!documentAddsUp(document)) return 'its lines and VAT do not add up to its totals';
  for (const line of parseLines(document.lines)) {
    const rate = line.vat === null || line.vat === undefined ? 0 : Number(line.vat);
    const expected = Math.round((line.total_excluding_vat * rate) / 100);
    // One cent either way: a VAT-inclusive amount split at the rate rounds its VAT once more.
    if (!Number.isFinite(rate) || Math.abs(expected - line.total_vat) > 1)
      return (
        `the line "${line.description}" carries ${cents(line.total_vat)} VAT ` +
        `on ${cents(line.total_excluding_vat)} at ${String(line.vat)} %`
      );
  }
  if (charged !== null && document.total_including_vat !== charged)
    return `it is for ${cents(document.total_including_vat)}, the charge was ${cents(charged)}`;
  return null;
}

interface StoredLine {
  description: string;
  vat: string | null;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
}

function parseLines(text: string): StoredLine[] {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? (parsed as StoredLine[]) : [];
}

function documentAddsUp(document: { lines: string; total_excluding_vat: number; total_vat: number; total_including_vat: number }): boolean {
  const lines = parseLines(document.lines);
  return (
    document.total_excluding_vat + document.total_vat === document.total_including_vat &&
    lines.every((line) => line.total_excluding_vat + line.total_vat === line.total_including_vat) &&
    sum(lines.map((line) => line.total_excluding_vat)) === document.total_excluding_vat &&
    sum(lines.map((line) => line.total_vat)) === document.total_vat
  );
}

/**
 * Other billers an import knows of, counted in our periods: the provider's subscription we took over (its payments),
 * and store renewals paid through another gateway. Either beside a charge of ours in the same period is twice.
 */
async function checkOtherBillers(books: Books, findings: Findings, periods: Period[], refundedOf: Map<string, number>): Promise<void> {
  const charged = periods.filter((period) => period.payments.some((payment) => charges_(payment, refundedOf.get(payment.id) ?? 0)));
  const bySubscription = groupBy(charged, (period) => period.subscription.id);
  const inPeriod = (subscriptionId: string, date: string) =>
    (bySubscription.get(subscriptionId) ?? []).find((period) => period.start <= date && date < period.end);
  const report = (period: Period, other: string, date: string, rows: string[]) =>
    findings.violation(
      'one_charge_per_period',
      `subscription ${period.subscription.id}: the period from ${period.start} was charged by us ` +
        `(${period.payments.map((payment) => payment.id).join(', ')}) and by ${other} on ${date}`,
      [period.subscription.id, period.charge.id, ...period.payments.map((payment) => payment.id), ...rows],
    );

  const imported = [...new Map(charged.map((period) => [period.subscription.id, period.subscription])).values()].filter(
    (subscription) => subscription.source === PROVIDER_SUBSCRIPTIONS_SOURCE && subscription.source_id,
  );
  const customers = await auditRepository.providerCustomerIds(
    books.ctx.db,
    books.scope.accountId,
    imported.map((subscription) => subscription.customer_id),
  );
  for (const subscription of imported) {
    const customerId = customers.get(subscription.customer_id);
    if (!customerId || !subscription.source_id) continue;
    for (const payment of await orNoneWhenGone(books.provider.listSubscriptionPayments(customerId, subscription.source_id))) {
      const took =
        UNDER_WAY.has(payment.status) ||
        (MONEY_TAKEN.has(payment.status) && payment.amount - payment.amountRefunded - payment.amountChargedBack > 0);
      if (!took) continue;
      const date = calendarDateIn(payment.paidAt ?? payment.createdAt, books.timeZone);
      const period = inPeriod(subscription.id, date);
      if (period)
        report(period, `the provider's subscription ${subscription.source_id} (${payment.id})`, date, [subscription.source_id, payment.id]);
    }
  }
  for (const order of await auditRepository.storeRenewalsElsewhere(books.ctx.db, books.scope, OUR_GATEWAY)) {
    const date = calendarDateIn(fromDbDateTime(order.created_at), books.timeZone);
    const period = inPeriod(order.subscription_id, date);
    if (period) report(period, `the store's renewal order ${order.order_number} paid through ${order.payment_method}`, date, [order.id]);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// No mandate revoked while a known biller still charges it.

async function checkMandates(books: Books, findings: Findings): Promise<void> {
  const { ctx, scope } = books;
  const revoked = await auditRepository.revokedMandates(ctx.db, scope);
  if (!revoked.length) return;
  const subscriptions = await auditRepository.subscriptions(ctx.db, scope.accountId);
  const customers = await auditRepository.providerCustomerIds(
    ctx.db,
    scope.accountId,
    revoked.map((mandate) => mandate.customer_id),
  );
  for (const mandate of revoked) {
    const ours = subscriptions.filter(
      (subscription) =>
        subscription.provider_mandate_id === mandate.id && (subscription.status === 'active' || subscription.status === 'paused'),
    );
    if (ours.length)
      findings.violation(
        'mandate_revoked_in_use',
        `mandate ${mandate.id} was revoked at ${mandate.revoked_at} UTC, ` +
          `our subscriptions ${ours.map((s) => s.id).join(', ')} still charge it`,
        [mandate.id, ...ours.map((subscription) => subscription.id)],
      );
    const customerId = customers.get(mandate.customer_id);
    if (!customerId) continue;
    const theirs = (await books.provider.listSubscriptions(customerId)).filter((subscription) => subscription.status === 'active');
    if (!theirs.length) continue;
    // A provider subscription without a mandate of its own charges any valid mandate: it needs this one when no other is valid.
    const otherValid = (await books.provider.listMandates(customerId)).some((other) => other.id !== mandate.id && other.status === 'valid');
    const using = theirs.filter(
      (subscription) => subscription.mandateId === mandate.id || (subscription.mandateId === null && !otherValid),
    );
    if (using.length)
      findings.violation(
        'mandate_revoked_in_use',
        `mandate ${mandate.id} was revoked at ${mandate.revoked_at} UTC, ` +
          `the provider's subscriptions ${using.map((s) => s.id).join(', ')} still charge it`,
        [mandate.id, ...using.map((subscription) => subscription.id)],
      );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Document numbers: unique (invoices and credit notes share them), gapless per series but where the merchant moved them.

async function checkDocumentNumbers(books: Books, findings: Findings): Promise<void> {
  const { ctx, scope } = books;
  const documents = await auditRepository.documentNumbers(ctx.db, scope.accountId);
  const moves = await auditRepository.numberMoves(ctx.db, scope.accountId);
  const series = await auditRepository.invoiceSeries(ctx.db, scope.accountId);
  for (const [number, same] of groupBy(documents, (document) => document.number))
    if (same.length > 1)
      findings.violation(
        'document_numbers',
        `number ${number} is given to ${same.length} documents: ${same.map((d) => `${d.kind} ${d.id}`).join(', ')}`,
        same.map((document) => document.id),
      );
  const prefixes = [...new Set([...moves.map((move) => move.prefix), ...(series ? [series.prefix] : [])])].sort(
    (a, b) => b.length - a.length,
  );
  const numbered = documents.map((document) => ({ ...document, ...splitNumber(document.number, prefixes) }));
  const bySeries = groupBy(numbered, (document) => document.prefix);
  if (series && !bySeries.has(series.prefix)) bySeries.set(series.prefix, []);
  for (const [prefix, own] of bySeries) {
    const taken = [...new Set(own.map((document) => document.value))].sort((a, b) => a - b);
    const movesOf = moves.filter((move) => move.prefix === prefix);
    const next = series && series.prefix === prefix ? Number(series.next_number) : null;
    // The numbers of the series' current end count as taken: the next one is not lost before it is given.
    const ends = next !== null ? [...taken, next] : taken;
    let expected = 1;
    for (const value of ends) {
      if (value > expected) reportGap(findings, prefix, expected, value - 1, movesOf, own);
      expected = Math.max(expected, value + 1);
    }
  }
}

function reportGap(
  findings: Findings,
  prefix: string,
  first: number,
  last: number,
  moves: Array<{ from_number: number; to_number: number; moved_at: string }>,
  documents: Array<{ id: string; value: number; number: string }>,
) {
  const covering = moves.filter((move) => move.from_number <= last && move.to_number > first);
  const uncovered: number[] = [];
  for (let value = first; value <= last && uncovered.length < 2; value++)
    if (!covering.some((move) => move.from_number <= value && value < move.to_number)) uncovered.push(value);
  const range = first === last ? `${prefix}${first}` : `${prefix}${first} to ${prefix}${last}`;
  const around = documents.filter((document) => document.value === first - 1 || document.value === last + 1).map((document) => document.id);
  if (!uncovered.length) {
    findings.note(
      'document_numbers',
      `numbers ${range} were skipped: moved by the merchant (${covering.map((m) => m.moved_at).join(', ')} UTC)`,
      around,
    );
    return;
  }
  findings.violation(
    'document_numbers',
    `series "${prefix}": numbers ${range} are missing (no document has them, the merchant did not skip them)`,
    around,
  );
}

/** A document number's series (the longest known prefix it starts with, else all but its trailing digits) and value. */
function splitNumber(number: string, prefixes: string[]): { prefix: string; value: number } {
  for (const prefix of prefixes)
    if (number.startsWith(prefix) && /^\d+$/.test(number.slice(prefix.length)))
      return { prefix, value: Number(number.slice(prefix.length)) };
  const match = /^(.*?)(\d+)$/.exec(number);
  return match ? { prefix: match[1] ?? '', value: Number(match[2]) } : { prefix: number, value: 0 };
}

// ---------------------------------------------------------------------------------------------------------------

function afterInterval(date: string, unit: string, count: number): string {
  const parsed = parseCalendarDate(date);
  if (!parsed) return date;
  const singular = unit.replace(/s$/, '');
  if (singular === 'month') return formatCalendarDate(addMonths(parsed, count));
  if (singular === 'year') return formatCalendarDate(addMonths(parsed, 12 * count));
  return formatCalendarDate(addDays(parsed, singular === 'week' ? 7 * count : count));
}

/** What the provider no longer has (the account moved to another provider, a subscription deleted there) bills nothing. */
async function orNoneWhenGone<T>(read: Promise<T[]>): Promise<T[]> {
  return (await orNullWhenGone(read)) ?? [];
}

async function orNullWhenGone<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ProviderNotFoundError) return null;
    throw error;
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Cents as the merchant reads them. */
const cents = (amount: number) =>
  `${amount < 0 ? '-' : ''}${Math.floor(Math.abs(amount) / 100)}.${String(Math.abs(amount) % 100).padStart(2, '0')}`;

// ---------------------------------------------------------------------------------------------------------------
// Stored runs: the daily job's, the CLI's, those the API asks for.

/** A run not finished after this long was lost with its process: another may start. */
const RUN_LOST_AFTER_MS = 60 * 60 * 1000;

/**
 * Runs the audit for one account and stores its report (`audit_reports`): the row first (`running`), then the run,
 * then the outcome. Violations tell the merchant (`audit.failed`, to the account's events endpoint).
 */
export async function runStoredAudit(
  ctx: AppContext,
  account: { id: string; name: string },
  options: { since: Date | null; via: AuditReportRow['requested_via'] },
): Promise<{ row: AuditReportRow; report: AuditReport | null }> {
  const row = await startRun(ctx, account, options);
  return { row, report: await finishRun(ctx, account, row, options.since) };
}

/**
 * `POST /api/v2/audit`: a run started in the background, answered at once; a run of the account still going is
 * answered instead of starting a second (the provider's history is read once at a time).
 */
export async function requestAudit(ctx: AppContext, account: { id: string; name: string }, since: Date | null): Promise<AuditReportRow> {
  const after = toDbDateTime(msBefore(ctx.clock.now(), RUN_LOST_AFTER_MS));
  const running = await auditRepository.reports.running(ctx.db, account.id, after);
  if (running) return running;
  const row = await startRun(ctx, account, { since, via: 'api' });
  ctx.background.run('audit', () => finishRun(ctx, account, row, since));
  return row;
}

/** The account's latest finished report, or null when it was never audited. */
export async function latestAudit(ctx: AppContext, accountId: string): Promise<AuditReportRow> {
  const row = await auditRepository.reports.latestFinished(ctx.db, accountId);
  if (!row) throw new NotFoundError('Audit report');
  return row;
}

export async function auditRun(ctx: AppContext, accountId: string, id: string): Promise<AuditReportRow> {
  const row = await auditRepository.reports.find(ctx.db, accountId, id);
  if (!row) throw new NotFoundError('Audit report');
  return row;
}

/** `POST /api/v2/audit` with its `since` day (APP_TIMEZONE), if any. */
export function requestAuditSince(
  ctx: AppContext,
  account: { id: string; name: string },
  day: string | undefined,
): Promise<AuditReportRow> {
  return requestAudit(ctx, account, day ? instantFromZonedDateTime(`${day} 00:00:00`, ctx.config.APP_TIMEZONE) : null);
}

async function startRun(
  ctx: AppContext,
  account: { id: string },
  options: { since: Date | null; via: AuditReportRow['requested_via'] },
): Promise<AuditReportRow> {
  const row: AuditReportRow = {
    id: newId('aud'),
    account_id: account.id,
    status: 'running',
    requested_via: options.via,
    since: options.since ? toDbDateTime(options.since).slice(0, 10) : null,
    violations: null,
    todos: null,
    report: null,
    error: null,
    started_at: toDbDateTime(ctx.clock.now()),
    finished_at: null,
  };
  await auditRepository.reports.insert(ctx.db, row);
  return row;
}

async function finishRun(
  ctx: AppContext,
  account: { id: string; name: string },
  row: AuditReportRow,
  since: Date | null,
): Promise<AuditReport | null> {
  let report: AuditReport;
  try {
    report = await auditAccount(ctx, account, since);
  } catch (error) {
    const message = errorMessage(error).split('\n')[0]?.slice(0, 500) ?? '';
    await auditRepository.reports.finish(ctx.db, account.id, row.id, {
      status: 'failed',
      error: message,
      finished_at: toDbDateTime(ctx.clock.now()),
    });
    ctx.logger.warn('audit failed to run', { accountId: account.id, auditId: row.id, error: message });
    return null;
  }
  const now = toDbDateTime(ctx.clock.now());
  await ctx.db.transaction(async (trx) => {
    await auditRepository.reports.finish(trx, account.id, row.id, {
      status: 'done',
      violations: report.violations.length,
      todos: report.todos.length,
      report: JSON.stringify(report),
      finished_at: now,
    });
    if (report.violations.length)
      await enqueueAccountEvent(
        trx,
        account.id,
        {
          name: 'audit.failed',
          resourceId: row.id,
          body: { violations: report.violations.length, invariants: [...new Set(report.violations.map((v) => v.invariant))] },
        },
        now,
      );
  });
  ctx.logger.info('audit done', {
    accountId: account.id,
    auditId: row.id,
    violations: report.violations.length,
    todos: report.todos.length,
  });
  return report;
}
