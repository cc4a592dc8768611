import nodemailer from 'nodemailer';
import type { Config } from '../config';

/** What delivery needs of a mail server: nodemailer's transport, or a test's stand-in. */
export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    attachments?: MailAttachment[];
  }): Promise<unknown>;
}

/** A file sent with a mail (nodemailer's attachment fields). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

const transports = new WeakMap<Config, MailTransport>();

/** One SMTP transport per configuration (it pools nothing by default, but parses SMTP_URL once); null without SMTP_URL. */
export function smtpTransportFor(config: Config): MailTransport | null {
  if (!config.SMTP_URL) return null;
  let transport = transports.get(config);
  if (!transport) {
    transport = nodemailer.createTransport(config.SMTP_URL);
    transports.set(config, transport);
  }
  return transport;
}

/**
 * What may be said about a failed send: the SMTP reply code or nodemailer's error code, never its
 * message (it can quote the address, the server's host or socket details).
 */
export function genericMailError(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
    if (typeof responseCode === 'number') return `SMTP server answered ${responseCode}`;
    if (typeof code === 'string' && /^[A-Z_]{2,32}$/.test(code)) return `could not send (${code})`;
  }
  return 'could not send';
}
