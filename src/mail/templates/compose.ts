import type { PageLocale } from '../../i18n/locales';
import { escapeHtml, mailLayout, type RenderedMail } from './layout';
import { utcMidnightOf } from '../../time/calendar';

/** A day (Y-m-d) as people write it in each language: `31 December 2026`, `31 december 2026`. */
export const mailDate = (locale: PageLocale, ymd: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    utcMidnightOf(ymd.slice(0, 10)),
  );

/** The link as a button, inline: mail clients drop style sheets. */
const BUTTON_STYLE = 'display:inline-block;padding:12px 20px;background:#0b5cad;color:#ffffff;text-decoration:none;border-radius:6px';

export interface MailParts {
  subject: string;
  /** Paragraphs before the button; empty strings are left out. */
  paragraphs: string[];
  button?: { label: string; url: string };
  /** Smaller print after the button (ignore-if, contact), then the merchant's name signs. */
  notes: string[];
  signature: string;
}

/** One mail in text and HTML from the same words, every piece escaped. */
export function composeMail(locale: PageLocale, parts: MailParts): RenderedMail {
  const paragraphs = parts.paragraphs.filter(Boolean);
  const notes = parts.notes.filter(Boolean);
  const text = [paragraphs.join('\n'), parts.button ? `${parts.button.label}: ${parts.button.url}` : '', notes.join('\n'), parts.signature]
    .filter(Boolean)
    .join('\n\n');
  const html = [
    ...paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`),
    parts.button ? `<p><a href="${escapeHtml(parts.button.url)}" style="${BUTTON_STYLE}">${escapeHtml(parts.button.label)}</a></p>` : '',
    ...notes.map((line) => `<p style="color:#555">${escapeHtml(line)}</p>`),
    `<p>${escapeHtml(parts.signature)}</p>`,
  ]
    .filter(Boolean)
    .join('\n');
  return { subject: parts.subject, text, html: mailLayout(locale, parts.subject, html) };
}
