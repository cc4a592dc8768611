import type { Knex } from 'knex';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/connect';
import { FALLBACK_LOCALE, pageLocaleOf } from '../i18n/locales';
import { newId } from '../ids';
import { toDbDateTime } from '../time';
import { mailsRepository } from './repository';
import type { OutgoingMailRow } from './rows';
import { renderMail, type TemplateAndData } from './templates';

export type MailRequest = TemplateAndData & {
  accountId: string;
  to: string;
  /** The recipient's locale (`nl`, `en`, …); English when absent or not one of ours. */
  locale: string | null;
  /** "The same mail": queued twice under one key, it is written (and sent) once. */
  dedupeKey?: string;
  /** A document to attach, drawn when the mail is sent (delivery.ts): `invoice:ivc_…`, `credit_note:crn_…`. */
  attachment?: string;
};

/**
 * Writes a mail to the outbox, rendered in the recipient's locale, inside the caller's transaction
 * when given one: the mail exists if and only if what caused it committed, and it is sent after
 * that (delivery.ts), never before. Answers the mail's id — the earlier one for a known dedupe key.
 */
export async function queueMail(db: Knex, ctx: Pick<AppContext, 'clock'>, mail: MailRequest): Promise<string> {
  const locale = pageLocaleOf(mail.locale) ?? FALLBACK_LOCALE;
  const rendered = renderMail(locale, mail);
  const now = toDbDateTime(ctx.clock.now());
  const row: OutgoingMailRow = {
    id: newId('mail'),
    account_id: mail.accountId,
    template: mail.template,
    locale,
    recipient: mail.to,
    subject: rendered.subject.slice(0, 191),
    text_body: rendered.text,
    html_body: rendered.html,
    status: 'queued',
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    sent_at: null,
    dedupe_key: mail.dedupeKey ?? null,
    attachment: mail.attachment ?? null,
    created_at: now,
    updated_at: now,
  };
  try {
    await mailsRepository.insert(db, row);
    return row.id;
  } catch (error) {
    if (!mail.dedupeKey || !isUniqueViolation(error)) throw error;
    const earlier = await mailsRepository.findByDedupeKey(db, mail.dedupeKey);
    if (!earlier) throw error;
    return earlier.id;
  }
}
