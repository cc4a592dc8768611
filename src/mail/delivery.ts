import type { AppContext } from '../context';
import { fromDbDateTime, toDbDateTime } from '../time';
import { nextAttemptAfterFailure } from '../time/backoff';
import { mailsRepository } from './repository';
import type { OutgoingMailRow } from './rows';
import { bodiesAfterSending } from './templates';
import { genericMailError, smtpTransportFor, type MailAttachment, type MailTransport } from './transport';
import { errorMessage } from '../errors';

const BATCH_SIZE = 50;

/** What one delivery pass did: mails sent or stored, and attempts that failed. */
export interface MailRun {
  processed: number;
  failed: number;
}

/**
 * Draws the document a mail names (`attachment`) when it is sent; null when there is none to draw.
 * The features that attach documents give it (the deliver-mails job: invoices and credit notes).
 */
export type MailAttachmentSource = (ctx: AppContext, mail: OutgoingMailRow) => Promise<MailAttachment | null>;

const noAttachments: MailAttachmentSource = async () => null;

/**
 * Sends the outbox's due mails. With SMTP_URL each goes to the server and is `sent`; a failure is
 * retried with the webhooks' backoff for 26 hours, then `failed`. Without SMTP_URL (the embedded
 * default) a mail is `stored`: kept in the table for `cli mails list`, and logged by id only — no
 * address, subject or body reaches a log line.
 */
export async function deliverDueMails(
  ctx: AppContext,
  signal: AbortSignal,
  transport: MailTransport | null = smtpTransportFor(ctx.config),
  attachments: MailAttachmentSource = noAttachments,
): Promise<MailRun> {
  const result: MailRun = { processed: 0, failed: 0 };
  const now = toDbDateTime(ctx.clock.now());
  // Longest due first: a failed mail's next attempt lies ahead, so it never heads every batch.
  const due = await mailsRepository.due(ctx.db, now, BATCH_SIZE);
  for (const mail of due) {
    if (signal.aborted) break;
    if (await attempt(ctx, mail, transport, attachments)) result.processed += 1;
    else result.failed += 1;
  }
  return result;
}

/**
 * One mail's attempt, which never stops the batch: what throws outside the send itself (its row cannot be written) is a failed attempt too.
 */
async function attempt(
  ctx: AppContext,
  mail: OutgoingMailRow,
  transport: MailTransport | null,
  attachments: MailAttachmentSource,
): Promise<boolean> {
  try {
    return await deliver(ctx, mail, transport, attachments);
  } catch (error) {
    ctx.logger.error('mail attempt failed; counted as a failed send', {
      mail: mail.id,
      error: errorMessage(error),
    });
    // When even that cannot be written, the mail stays due and the next run tries it again.
    await recordFailure(ctx, mail, 'could not send').catch(() => undefined);
    return false;
  }
}

/** Only a still-queued mail is marked, so two runners racing (a lease taken over) record one outcome. */
const markQueued = (ctx: AppContext, mail: OutgoingMailRow, changes: Partial<OutgoingMailRow>) =>
  mailsRepository.updateIfQueued(ctx.db, mail.id, { ...changes, updated_at: toDbDateTime(ctx.clock.now()) });

/** A failed attempt: retried with backoff until 26 hours after the mail was queued, then `failed`. */
async function recordFailure(ctx: AppContext, mail: OutgoingMailRow, reason: string): Promise<void> {
  const attempts = mail.attempts + 1;
  const next = nextAttemptAfterFailure(fromDbDateTime(mail.created_at), ctx.clock.now(), attempts);
  await markQueued(ctx, mail, {
    attempts,
    last_error: reason,
    status: next ? 'queued' : 'failed',
    next_attempt_at: next ? toDbDateTime(next) : null,
  });
  const about = { mail: mail.id, template: mail.template, locale: mail.locale, attempts, reason };
  ctx.logger.warn(next ? 'mail could not be sent; will retry' : 'mail could not be sent for 26 hours; given up', about);
}

async function deliver(
  ctx: AppContext,
  mail: OutgoingMailRow,
  transport: MailTransport | null,
  attachments: MailAttachmentSource,
): Promise<boolean> {
  const about = { mail: mail.id, template: mail.template, locale: mail.locale };
  if (!transport) {
    await markQueued(ctx, mail, { status: 'stored', next_attempt_at: null });
    ctx.logger.info('mail stored (no SMTP_URL): see `cli mails list`', about);
    return true;
  }
  // Drawn now, not stored with the mail: the document is stored already, and the mail stays small.
  const attachment = mail.attachment ? await attachments(ctx, mail) : null;
  if (mail.attachment && !attachment) {
    await recordFailure(ctx, mail, 'its attachment could not be drawn');
    return false;
  }
  try {
    await transport.sendMail({
      from: ctx.config.MAIL_FROM,
      to: mail.recipient,
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body,
      ...(attachment ? { attachments: [attachment] } : {}),
    });
  } catch (error) {
    await recordFailure(ctx, mail, genericMailError(error));
    return false;
  }
  // A single-use link is kept in the outbox only until it is sent: until then a retry needs it.
  const kept = bodiesAfterSending(mail.template, { text: mail.text_body, html: mail.html_body });
  await markQueued(ctx, mail, {
    ...(kept ? { text_body: kept.text, html_body: kept.html } : {}),
    status: 'sent',
    attempts: mail.attempts + 1,
    sent_at: toDbDateTime(ctx.clock.now()),
    next_attempt_at: null,
    last_error: null,
  });
  ctx.logger.info('mail sent', about);
  return true;
}
