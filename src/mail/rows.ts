export const MAIL_STATUSES = ['queued', 'sent', 'stored', 'failed'] as const;
/** queued: waits to be sent; sent: the SMTP server took it; stored: no SMTP_URL, kept here only; failed: given up. */
export type MailStatus = (typeof MAIL_STATUSES)[number];

export interface OutgoingMailRow {
  id: string;
  account_id: string;
  template: string;
  locale: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  sent_at: string | null;
  dedupe_key: string | null;
  /** A document attached when the mail is sent (`invoice:ivc_…`, `credit_note:crn_…`), drawn then from what is stored. */
  attachment?: string | null;
  created_at: string;
  updated_at: string;
}
