import type { PageLocale } from '../../i18n/locales';
import type { RenderedMail } from './layout';
import { renderChargeNotice, type ChargeNoticeData } from './chargeNotice';
import { renderInvoiceMail, type InvoiceMailData } from './invoiceMail';
import { renderLinkReminder, type LinkReminderData } from './linkReminder';
import {
  renderPortalCancelled,
  renderPortalMethodChanged,
  renderPortalPaused,
  renderPortalResumed,
  renderPortalSkipped,
  type PortalCancelledData,
  type PortalMethodChangedData,
  type PortalPausedData,
  type PortalResumedData,
  type PortalSkippedData,
} from './portalActions';
import { renderPortalLogin, withoutPortalLoginSecrets, type PortalLoginData } from './portalLogin';

/**
 * Every mail we send, by template name, with the data it needs. A new mail is one file with its
 * words in each locale plus one entry here and in RENDERERS.
 */
export interface MailTemplates {
  'link-reminder': LinkReminderData;
  'charge-notice': ChargeNoticeData;
  'portal-login': PortalLoginData;
  'portal-cancelled': PortalCancelledData;
  'portal-paused': PortalPausedData;
  'portal-resumed': PortalResumedData;
  'portal-skipped': PortalSkippedData;
  'portal-method-changed': PortalMethodChangedData;
  invoice: InvoiceMailData;
}

export type MailTemplateName = keyof MailTemplates;

/** A template name with its own data, so one cannot be queued with another's. */
export type TemplateAndData = { [Name in MailTemplateName]: { template: Name; data: MailTemplates[Name] } }[MailTemplateName];

const RENDERERS: { [Name in MailTemplateName]: (locale: PageLocale, data: MailTemplates[Name]) => RenderedMail } = {
  'link-reminder': renderLinkReminder,
  'charge-notice': renderChargeNotice,
  'portal-login': renderPortalLogin,
  'portal-cancelled': renderPortalCancelled,
  'portal-paused': renderPortalPaused,
  'portal-resumed': renderPortalResumed,
  'portal-skipped': renderPortalSkipped,
  'portal-method-changed': renderPortalMethodChanged,
  invoice: renderInvoiceMail,
};

export function renderMail(locale: PageLocale, mail: TemplateAndData): RenderedMail {
  switch (mail.template) {
    case 'link-reminder':
      return RENDERERS[mail.template](locale, mail.data);
    case 'charge-notice':
      return RENDERERS[mail.template](locale, mail.data);
    case 'portal-login':
      return RENDERERS[mail.template](locale, mail.data);
    case 'portal-cancelled':
      return RENDERERS[mail.template](locale, mail.data);
    case 'portal-paused':
      return RENDERERS[mail.template](locale, mail.data);
    case 'portal-resumed':
      return RENDERERS[mail.template](locale, mail.data);
    case 'portal-skipped':
      return RENDERERS[mail.template](locale, mail.data);
    case 'portal-method-changed':
      return RENDERERS[mail.template](locale, mail.data);
    case 'invoice':
      return RENDERERS[mail.template](locale, mail.data);
  }
}

/** Templates whose mails carry a secret (a single-use link): what of them the outbox keeps once sent. */
const AFTER_SENDING: { [Name in MailTemplateName]?: (body: string) => string } = {
  'portal-login': withoutPortalLoginSecrets,
};

/** A sent mail's bodies without its secrets, to keep in the outbox; null when the template carries none. */
export function bodiesAfterSending(template: string, bodies: { text: string; html: string }): { text: string; html: string } | null {
  const strip = AFTER_SENDING[template as MailTemplateName];
  return strip ? { text: strip(bodies.text), html: strip(bodies.html) } : null;
}

export type { RenderedMail } from './layout';
