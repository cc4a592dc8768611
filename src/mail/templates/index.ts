import type { PageLocale } from '../../i18n/locales';
import type { RenderedMail } from './layout';
import { renderChargeNotice, type ChargeNoticeData } from './chargeNotice';
import { renderLinkReminder, type LinkReminderData } from './linkReminder';

/**
 * Every mail we send, by template name, with the data it needs. A new mail is one file with its
 * words in each locale plus one entry here and in RENDERERS.
 */
export interface MailTemplates {
  'link-reminder': LinkReminderData;
  'charge-notice': ChargeNoticeData;
}

export type MailTemplateName = keyof MailTemplates;

/** A template name with its own data, so one cannot be queued with another's. */
export type TemplateAndData = { [Name in MailTemplateName]: { template: Name; data: MailTemplates[Name] } }[MailTemplateName];

const RENDERERS: { [Name in MailTemplateName]: (locale: PageLocale, data: MailTemplates[Name]) => RenderedMail } = {
  'link-reminder': renderLinkReminder,
  'charge-notice': renderChargeNotice,
};

export function renderMail(locale: PageLocale, mail: TemplateAndData): RenderedMail {
  switch (mail.template) {
    case 'link-reminder':
      return RENDERERS[mail.template](locale, mail.data);
    case 'charge-notice':
      return RENDERERS[mail.template](locale, mail.data);
  }
}

export type { RenderedMail } from './layout';
