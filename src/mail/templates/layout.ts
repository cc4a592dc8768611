import type { PageLocale } from '../../i18n/locales';
import { escapeHtml } from '../../text/html';

/** A mail as it is sent: subject, plain text for every client, HTML for those that show it. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export { escapeHtml };

/** Inline styles only: mail clients drop style sheets. */
/** The page's look, inline: mail clients drop style sheets. */
const BODY_STYLE =
  'margin:0;padding:24px;background:#f5f5f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1a1a1a;line-height:1.5';

export function mailLayout(locale: PageLocale, title: string, body: string): string {
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="${BODY_STYLE}">
<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:24px;border-radius:8px">
${body}
</div></body></html>`;
}
