import type { PageLocale } from '../../i18n/locales';
import { formatMoneyFor } from '../../money/forLocale';
import type { PauseDateProblem } from '../../modules/portal/actions';
import type {
  PortalCreditNoteView,
  PortalFrame,
  PortalInvoiceView,
  PortalOverview,
  PortalPaymentView,
  PortalRefundView,
  PortalSubscriptionView,
} from '../../modules/portal/overview';
import type { PaymentRowStatus } from '../../modules/payments/transitions';
import type { RefundRowStatus } from '../../modules/refunds/repository';
import { escapeHtml } from '../../text/html';
import { renderPage } from '../html';
import { PAY_STRINGS } from '../pay/strings';
import { PORTAL_STYLESHEET } from './portal.css';
import { PORTAL_STRINGS, type PortalNotice, type ShownPaymentStatus, type ShownRefundStatus } from './strings';
import type { PortalVisitor } from './visitor';
import { utcMidnightOf } from '../../time/calendar';

/** What every signed-in page needs: who looks, in which language, and what the merchant set. */
export interface PortalPage {
  locale: PageLocale;
  frame: PortalFrame;
  visitor: Pick<PortalVisitor, 'csrfToken' | 'returnUrl'>;
}

const words = (page: PortalPage) => PORTAL_STRINGS[page.locale];

const dateFor = (locale: PageLocale, ymd: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    utcMidnightOf(ymd.slice(0, 10)),
  );

const money = (page: PortalPage, cents: number, currency: string) => formatMoneyFor(page.locale, cents, currency);
/** What went back (a refund, a credit note): the sign before the amount, `-€5.00`, `-5,00 €`. */
const moneyBack = (page: PortalPage, cents: number, currency: string) => `-${money(page, Math.abs(cents), currency)}`;

/** The form field every POST carries; the session middleware refuses a POST without the session's own. */
const csrfField = (page: PortalPage) => `<input type="hidden" name="_csrf" value="${escapeHtml(page.visitor.csrfToken)}">`;

/** The merchant's name and contact address, the way back to the shop, and log-out: on every page. */
function siteHeader(page: PortalPage): string {
  const w = words(page);
  const { merchant } = page.frame;
  const email = merchant.contactEmail ? escapeHtml(merchant.contactEmail) : null;
  const contact = email ? `<p class="contact">${escapeHtml(w.contact)} <a href="mailto:${email}">${email}</a></p>` : '';
  const back = page.visitor.returnUrl ? `<a class="back" href="${escapeHtml(page.visitor.returnUrl)}">${escapeHtml(w.backToShop)}</a>` : '';
  return `<div class="merchant">
<p class="merchant-name">${escapeHtml(merchant.displayName)}</p>
${contact}
</div>
<div class="session">
${back}
<form method="post" action="/portal/logout">${csrfField(page)}
<button type="submit" class="link-button">${escapeHtml(w.logOut)}</button></form>
</div>`;
}

function portalPage(page: PortalPage, title: string, body: string): string {
  return renderPage({ locale: page.locale, title, body, stylesheet: PORTAL_STYLESHEET, header: siteHeader(page) });
}

const backLink = (page: PortalPage) => `<p><a href="/portal/">${escapeHtml(words(page).back)}</a></p>`;

/** A page with a title and a sentence (not found, not allowed, not possible now), and the way back. */
export function portalMessagePage(page: PortalPage, message: { title: string; text: string }): string {
  return portalPage(page, message.title, `<h1>${escapeHtml(message.title)}</h1>\n<p>${escapeHtml(message.text)}</p>\n${backLink(page)}`);
}

function amountLine(page: PortalPage, sub: PortalSubscriptionView): string {
  if (sub.amount === null || !sub.every) return '';
  const every = PAY_STRINGS[page.locale].every(sub.every.count, sub.every.unit);
  return words(page).amountEvery(money(page, sub.amount, sub.currency), every);
}

function nextChargeLine(page: PortalPage, sub: PortalSubscriptionView): string {
  const w = words(page);
  if (sub.nextChargeDate === null || sub.nextAmount === null) return w.noNextCharge;
  return w.nextChargeValue(dateFor(page.locale, sub.nextChargeDate), money(page, sub.nextAmount, sub.currency));
}

/** Charges left by the rules; none said when an end date is set (the note under the facts says when it ends). */
function remainingLine(page: PortalPage, sub: PortalSubscriptionView): string {
  const w = words(page);
  if (sub.cancelAt) return '';
  return sub.remainingTimes === null ? w.untilCancelled : w.remainingTimes(sub.remainingTimes);
}

/** Where each action's confirmation page is. */
function actionHref(sub: PortalSubscriptionView, action: PortalSubscriptionView['offered'][number]): string {
  if (action === 'change-method') return `/portal/payment-method?subscription=${encodeURIComponent(sub.id)}`;
  return `/portal/subscriptions/${encodeURIComponent(sub.id)}/${action}`;
}

function subscriptionCard(page: PortalPage, sub: PortalSubscriptionView): string {
  const w = words(page);
  const notes: string[] = [];
  if (sub.status === 'paused') notes.push(sub.resumeAt ? w.pausedUntil(dateFor(page.locale, sub.resumeAt)) : w.pausedWithoutEnd);
  if (sub.cancelAt && sub.status !== 'cancelled' && sub.status !== 'completed') notes.push(w.endsOn(dateFor(page.locale, sub.cancelAt)));
  const rows: Array<[string, string]> = [
    [w.status, w.statuses[sub.status]],
    [w.amount, amountLine(page, sub)],
    [w.nextCharge, nextChargeLine(page, sub)],
    [w.remaining, remainingLine(page, sub)],
    [w.paymentMethod, sub.mandate ?? w.unknownMethod],
  ];
  const actions = sub.offered.map(
    (action) =>
      `<li><a href="${escapeHtml(actionHref(sub, action))}">${escapeHtml(w.actions[action])}` +
      // Each link names its subscription to a screen reader: "Pause (Coffee box)".
      `<span class="visually-hidden"> (${escapeHtml(sub.name)})</span></a></li>`,
  );
  return `<section class="subscription" aria-labelledby="sub-${escapeHtml(sub.id)}">
<h3 id="sub-${escapeHtml(sub.id)}">${escapeHtml(sub.name)}</h3>
<dl class="facts">
${rows
  .filter(([, value]) => value)
  .map(([term, value]) => `<div><dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd></div>`)
  .join('\n')}
</dl>
${notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('\n')}
${actions.length ? `<ul class="actions">${actions.join('')}</ul>` : ''}
</section>`;
}

/** Our payment statuses in the customer's fewer words. */
function shownStatus(status: PaymentRowStatus): ShownPaymentStatus {
  switch (status) {
    case 'paid':
      return 'paid';
    case 'refunded':
      return 'refunded';
    case 'charged_back':
      return 'charged_back';
    case 'creating':
    case 'open':
    case 'pending':
    case 'authorized':
      return 'in_progress';
    case 'canceled':
    case 'expired':
    case 'failed':
    case 'rejected':
      return 'failed';
  }
}

/** A refund's status in the customer's words: money on its way, gone back, or not going back. */
function shownRefundStatus(status: RefundRowStatus): ShownRefundStatus {
  switch (status) {
    case 'refunded':
      return 'refunded';
    case 'failed':
    case 'canceled':
      return 'failed';
    case 'creating':
    case 'queued':
    case 'pending':
    case 'processing':
      return 'in_progress';
  }
}

/** A table cell that names its column, which the style sheet shows beside it when narrow screens stack the rows. */
const cell = (column: string, value: string, className?: string) =>
  `<td data-label="${escapeHtml(column)}"${className ? ` class="${className}"` : ''}>${escapeHtml(value)}</td>`;

function paymentsTable(page: PortalPage, payments: PortalPaymentView[]): string {
  const w = words(page);
  if (!payments.length) return `<p>${escapeHtml(w.noPayments)}</p>`;
  // Each refund in a row of its own under its payment, its amount negative: what went back.
  const refundRow = (payment: PortalPaymentView, refund: PortalRefundView) =>
    `<tr class="refund">${cell(w.date, dateFor(page.locale, refund.date))}` +
    `${cell(w.description, `${w.refund}: ${payment.description}`)}` +
    `${cell(w.amount, moneyBack(page, refund.amount, refund.currency), 'num')}` +
    `${cell(w.status, w.refundStatuses[shownRefundStatus(refund.status)])}</tr>`;
  const rows = payments.map(
    (payment) =>
      `<tr>${cell(w.date, dateFor(page.locale, payment.date))}${cell(w.description, payment.description)}` +
      `${cell(w.amount, money(page, payment.amount, payment.currency), 'num')}` +
      `${cell(w.status, w.paymentStatuses[shownStatus(payment.status)])}</tr>` +
      payment.refunds.map((refund) => `\n${refundRow(payment, refund)}`).join(''),
  );
  return (
    `<table class="history">
<caption class="visually-hidden">${escapeHtml(w.payments)}</caption>
<thead><tr><th scope="col">${escapeHtml(w.date)}</th><th scope="col">${escapeHtml(w.description)}</th>` +
    `<th scope="col" class="num">${escapeHtml(w.amount)}</th><th scope="col">${escapeHtml(w.status)}</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`
  );
}

/** An issued invoice's number links to its PDF. */
const invoiceNumberCell = (column: string, invoice: PortalInvoiceView) =>
  invoice.pdfId
    ? `<td data-label="${escapeHtml(column)}">` +
      `<a href="/portal/invoices/${encodeURIComponent(invoice.pdfId)}/pdf">${escapeHtml(invoice.number)}</a></td>`
    : cell(column, invoice.number);

function invoicesTable(page: PortalPage, invoices: PortalInvoiceView[]): string {
  const w = words(page);
  const rows = invoices.map(
    (invoice) =>
      `<tr>${invoiceNumberCell(w.invoiceNumber, invoice)}${cell(w.date, dateFor(page.locale, invoice.date))}` +
      `${cell(w.amount, money(page, invoice.amount, invoice.currency), 'num')}</tr>`,
  );
  return (
    `<table class="history">
<caption class="visually-hidden">${escapeHtml(w.invoices)}</caption>
<thead><tr><th scope="col">${escapeHtml(w.invoiceNumber)}</th><th scope="col">${escapeHtml(w.date)}</th>` +
    `<th scope="col" class="num">${escapeHtml(w.amount)}</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`
  );
}

/** A credit note's number links to its PDF, like an invoice's. */
function creditNotesTable(page: PortalPage, notes: PortalCreditNoteView[]): string {
  const w = words(page);
  const rows = notes.map(
    (note) =>
      `<tr><td data-label="${escapeHtml(w.invoiceNumber)}">` +
      `<a href="/portal/credit-notes/${encodeURIComponent(note.id)}/pdf">${escapeHtml(note.number)}</a></td>` +
      `${cell(w.creditsInvoice, note.invoiceNumber ?? '')}${cell(w.date, dateFor(page.locale, note.date))}` +
      `${cell(w.amount, moneyBack(page, note.amount, note.currency), 'num')}</tr>`,
  );
  return (
    `<table class="history">
<caption class="visually-hidden">${escapeHtml(w.creditNotes)}</caption>
<thead><tr><th scope="col">${escapeHtml(w.invoiceNumber)}</th><th scope="col">${escapeHtml(w.creditsInvoice)}</th>` +
    `<th scope="col">${escapeHtml(w.date)}</th><th scope="col" class="num">${escapeHtml(w.amount)}</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`
  );
}

/** `/portal/`: the subscriptions with what can be done with each, the latest payments, the invoices. */
export function overviewPage(page: PortalPage, overview: PortalOverview, notice: PortalNotice | null, historyLength: number): string {
  const w = words(page);
  const parts = [`<h1>${escapeHtml(w.yourSubscriptions)}</h1>`];
  if (notice) parts.push(`<p class="notice" role="status">${escapeHtml(w.notices[notice])}</p>`);
  parts.push(`<h2 class="visually-hidden">${escapeHtml(w.yourSubscriptions)}</h2>`);
  parts.push(
    overview.subscriptions.length
      ? overview.subscriptions.map((sub) => subscriptionCard(page, sub)).join('\n')
      : `<p>${escapeHtml(w.noSubscriptions)}</p>`,
  );
  parts.push(`<h2>${escapeHtml(w.payments)}</h2>`, paymentsTable(page, overview.payments));
  if (overview.payments.length >= historyLength) parts.push(`<p class="note">${escapeHtml(w.latestOnly(historyLength))}</p>`);
  if (overview.invoices.length) {
    parts.push(`<h2>${escapeHtml(w.invoices)}</h2>`, invoicesTable(page, overview.invoices));
    if (overview.invoices.length >= historyLength) parts.push(`<p class="note">${escapeHtml(w.latestOnly(historyLength))}</p>`);
  }
  if (overview.creditNotes.length) {
    parts.push(`<h2>${escapeHtml(w.creditNotes)}</h2>`, creditNotesTable(page, overview.creditNotes));
    if (overview.creditNotes.length >= historyLength) parts.push(`<p class="note">${escapeHtml(w.latestOnly(historyLength))}</p>`);
  }
  return portalPage(page, w.portalOf(page.frame.merchant.displayName), parts.join('\n'));
}

/** A confirmation page: what happens, the form that does it, and the way back. */
function confirmationPage(page: PortalPage, title: string, explanation: string, form: string): string {
  return portalPage(page, title, `<h1>${escapeHtml(title)}</h1>\n${explanation}\n${form}\n${backLink(page)}`);
}

function actionForm(page: PortalPage, action: string, fields: string, button: string): string {
  return `<form method="post" action="${escapeHtml(action)}" novalidate>
${csrfField(page)}
${fields}
<button type="submit">${escapeHtml(button)}</button>
</form>`;
}

const subscriptionPath = (sub: PortalSubscriptionView, action: string) => `/portal/subscriptions/${encodeURIComponent(sub.id)}/${action}`;

export function cancelPage(page: PortalPage, sub: PortalSubscriptionView): string {
  const w = words(page).cancel;
  const text = sub.nextChargeDate ? w.text(dateFor(page.locale, sub.nextChargeDate)) : w.textToday;
  const fields = `<div class="field">
<label for="reason">${escapeHtml(w.reason)}</label>
<p class="hint" id="reason-hint">${escapeHtml(w.reasonHint)}</p>
<textarea id="reason" name="reason" rows="3" maxlength="500" aria-describedby="reason-hint"></textarea>
</div>`;
  return confirmationPage(
    page,
    w.title(sub.name),
    `<p>${escapeHtml(text)}</p>`,
    actionForm(page, subscriptionPath(sub, 'cancel'), fields, w.button),
  );
}

/** The pause form, with the date the customer chose and what was wrong with it. */
export interface PauseForm {
  until: string;
  problem: PauseDateProblem | null;
  earliest: string;
  latest: string;
}

export function pausePage(page: PortalPage, sub: PortalSubscriptionView, form: PauseForm): string {
  const all = words(page);
  const w = all.pause;
  const latest = dateFor(page.locale, form.latest);
  const error = form.problem ? w.errors[form.problem](latest) : '';
  const described = error ? 'until-hint until-error' : 'until-hint';
  const fields =
    `${error ? `<p class="error" role="alert">${escapeHtml(all.fixErrors)}</p>` : ''}<div class="field">
<label for="until">${escapeHtml(w.until)}</label>
<p class="hint" id="until-hint">${escapeHtml(w.hint(latest))}</p>
<input id="until" name="until" type="date" required min="${escapeHtml(form.earliest)}" max="${escapeHtml(form.latest)}" ` +
    `value="${escapeHtml(form.until)}" aria-describedby="${described}"${error ? ' aria-invalid="true"' : ''}>
${error ? `<p class="error" id="until-error">${escapeHtml(error)}</p>` : ''}
</div>`;
  return confirmationPage(
    page,
    w.title(sub.name),
    `<p>${escapeHtml(w.text)}</p>`,
    actionForm(page, subscriptionPath(sub, 'pause'), fields, w.button),
  );
}

export function resumePage(page: PortalPage, sub: PortalSubscriptionView): string {
  const w = words(page).resume;
  return confirmationPage(
    page,
    w.title(sub.name),
    `<p>${escapeHtml(w.text)}</p>`,
    actionForm(page, subscriptionPath(sub, 'resume'), '', w.button),
  );
}

export function skipPage(page: PortalPage, sub: PortalSubscriptionView): string {
  const w = words(page).skip;
  if (sub.nextChargeDate === null || sub.nextAmount === null) return portalMessagePage(page, words(page).notPossible);
  const text = w.text(dateFor(page.locale, sub.nextChargeDate), money(page, sub.nextAmount, sub.currency));
  // The form names the charge it skips: sent twice, it skips nothing more.
  const fields = `<input type="hidden" name="date" value="${escapeHtml(sub.nextChargeDate)}">`;
  return confirmationPage(
    page,
    w.title(sub.name),
    `<p>${escapeHtml(text)}</p>`,
    actionForm(page, subscriptionPath(sub, 'skip'), fields, w.button),
  );
}

/** The change of payment method: for which subscriptions (all in use, or one), then on to the 0.01 payment. */
export function changeMethodPage(
  page: PortalPage,
  subscriptions: PortalSubscriptionView[],
  chosen: string | null,
  firstAmountCents: number,
): string {
  const w = words(page).changeMethod;
  const unknown = words(page).unknownMethod;
  const option = (value: string, label: string, checked: boolean) =>
    `<div class="choice"><input type="radio" id="subscription-${escapeHtml(value)}" name="subscription" value="${escapeHtml(value)}"` +
    `${checked ? ' checked' : ''}><label for="subscription-${escapeHtml(value)}">${escapeHtml(label)}</label></div>`;
  const choices =
    subscriptions.length > 1
      ? `<fieldset><legend>${escapeHtml(w.which)}</legend>
${option('all', w.all, chosen === null)}
${subscriptions.map((sub) => option(sub.id, `${w.only(sub.name)} (${sub.mandate ?? unknown})`, chosen === sub.id)).join('\n')}
</fieldset>`
      : `<input type="hidden" name="subscription" value="all">`;
  const amount = formatMoneyFor(page.locale, firstAmountCents, 'EUR');
  return confirmationPage(
    page,
    w.title,
    `<p>${escapeHtml(w.text(amount))}</p>`,
    actionForm(page, '/portal/payment-method', choices, w.button),
  );
}
