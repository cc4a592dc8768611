import type { PageLocale } from '../../i18n/locales';
import { composeMail, mailDate } from './compose';
import type { RenderedMail } from './layout';
import { contactLine, GREETING, type MerchantInMail } from './merchantContact';
import { PORTAL_ACTION_WORDS } from './portalActionWords';

/** What every confirmation of a portal action needs: who it is from, to whom, and the way back. */
export interface PortalActionBase extends MerchantInMail {
  customerName: string | null;
  /** `${PUBLIC_URL}/portal`, the portal's log-in page; null: no button. */
  portalUrl: string | null;
}

/** A subscription cancelled at the end of its paid period. */
export interface PortalCancelledData extends PortalActionBase {
  subscription: string;
  /** Y-m-d: cancel_at, the end of the last paid period. */
  endsOn: string;
  reason: string | null;
}

export interface PortalPausedData extends PortalActionBase {
  subscription: string;
  /** Y-m-d: the pause ends and charging resumes on this day. */
  pausedUntil: string;
}

export interface PortalResumedData extends PortalActionBase {
  subscription: string;
  /** Y-m-d, or null when nothing more is due. */
  nextChargeDate: string | null;
}

export interface PortalSkippedData extends PortalActionBase {
  subscription: string;
  /** Y-m-d: the charge that will not happen. */
  skippedDate: string;
  nextChargeDate: string | null;
}

export interface PortalMethodChangedData extends PortalActionBase {
  /** mandateLabel() of the new mandate: a masked IBAN or `Visa •••• 1234`; never the whole number. */
  mandateLabel: string;
  /** The subscriptions now charged on it (their names). */
  subscriptions: string[];
}

function confirmation(locale: PageLocale, data: PortalActionBase, subject: string, paragraphs: string[]): RenderedMail {
  const words = PORTAL_ACTION_WORDS[locale];
  return composeMail(locale, {
    subject,
    paragraphs: [GREETING[locale](data.customerName), ...paragraphs],
    button: data.portalUrl ? { label: words.manage, url: data.portalUrl } : undefined,
    notes: [words.notYou(data.merchantName), contactLine(locale, data)],
    signature: data.merchantName,
  });
}

const nextChargeOf = (locale: PageLocale, date: string | null) =>
  date ? PORTAL_ACTION_WORDS[locale].nextCharge(mailDate(locale, date)) : '';

export function renderPortalCancelled(locale: PageLocale, data: PortalCancelledData): RenderedMail {
  const words = PORTAL_ACTION_WORDS[locale].cancelled;
  return confirmation(locale, data, words.subject(data.merchantName), [
    words.body(data.subscription, mailDate(locale, data.endsOn)),
    data.reason?.trim() ? words.reason(data.reason.trim()) : '',
  ]);
}

export function renderPortalPaused(locale: PageLocale, data: PortalPausedData): RenderedMail {
  const words = PORTAL_ACTION_WORDS[locale].paused;
  return confirmation(locale, data, words.subject(data.merchantName), [words.body(data.subscription, mailDate(locale, data.pausedUntil))]);
}

export function renderPortalResumed(locale: PageLocale, data: PortalResumedData): RenderedMail {
  const words = PORTAL_ACTION_WORDS[locale].resumed;
  return confirmation(locale, data, words.subject(data.merchantName), [
    words.body(data.subscription),
    nextChargeOf(locale, data.nextChargeDate),
  ]);
}

export function renderPortalSkipped(locale: PageLocale, data: PortalSkippedData): RenderedMail {
  const words = PORTAL_ACTION_WORDS[locale].skipped;
  return confirmation(locale, data, words.subject(data.merchantName), [
    words.body(data.subscription, mailDate(locale, data.skippedDate)),
    nextChargeOf(locale, data.nextChargeDate),
  ]);
}

export function renderPortalMethodChanged(locale: PageLocale, data: PortalMethodChangedData): RenderedMail {
  const words = PORTAL_ACTION_WORDS[locale].methodChanged;
  return confirmation(locale, data, words.subject(data.merchantName), [
    words.body(data.mandateLabel),
    data.subscriptions.length ? words.usedBy(data.subscriptions.join(', ')) : '',
  ]);
}
