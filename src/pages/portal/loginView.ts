import type { PageLocale } from '../../i18n/locales';
import { escapeHtml } from '../../text/html';
import { renderPage } from '../html';
import { PORTAL_LOGIN_STRINGS } from './loginStrings';
import { PORTAL_STYLESHEET } from './portal.css';

const page = (locale: PageLocale, title: string, body: string) => renderPage({ locale, title, body, stylesheet: PORTAL_STYLESHEET });

const newLinkParagraph = (locale: PageLocale) => `<p><a href="/portal">${escapeHtml(PORTAL_LOGIN_STRINGS[locale].newLink)}</a></p>`;

export interface LoginForm {
  /** A sentence above the form: the session ended, or the customer logged out. */
  notice?: string;
  email?: string;
  error?: string;
}

/** `/portal` without a session: the log-in by e-mail. */
export function loginPage(locale: PageLocale, form: LoginForm = {}): string {
  const words = PORTAL_LOGIN_STRINGS[locale].login;
  const value = escapeHtml(form.email ?? '');
  const described = form.error ? ' aria-invalid="true" aria-describedby="email-error"' : '';
  const body = `<h1>${escapeHtml(words.title)}</h1>
${form.notice ? `<p class="note" role="status">${escapeHtml(form.notice)}</p>` : ''}
<p>${escapeHtml(words.intro)}</p>
<form method="post" action="/portal" novalidate>
<div class="field">
<label for="email">${escapeHtml(words.email)}</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="191" value="${value}"${described}>
${form.error ? `<p class="error" id="email-error">${escapeHtml(form.error)}</p>` : ''}
</div>
<button type="submit">${escapeHtml(words.button)}</button>
</form>`;
  return page(locale, words.title, body);
}

/** The one answer to a valid address, known or not. */
export function sentPage(locale: PageLocale, minutes: number): string {
  const words = PORTAL_LOGIN_STRINGS[locale].sent;
  return page(locale, words.title, `<h1>${escapeHtml(words.title)}</h1>\n<p>${escapeHtml(words.text(minutes))}</p>`);
}

/** A link that opens nothing: used or expired (`gone`), or never made (`unknown`); both offer a new one. */
export function linkProblemPage(locale: PageLocale, kind: 'gone' | 'unknown'): string {
  const words = kind === 'gone' ? PORTAL_LOGIN_STRINGS[locale].linkGone : PORTAL_LOGIN_STRINGS[locale].linkUnknown;
  return page(locale, words.title, `<h1>${escapeHtml(words.title)}</h1>\n<p>${escapeHtml(words.text)}</p>\n${newLinkParagraph(locale)}`);
}

/** A mailed link's page: the link is used only when the customer presses the button (a POST to the same address). */
export function confirmPage(locale: PageLocale, token: string): string {
  const words = PORTAL_LOGIN_STRINGS[locale].confirm;
  const body = `<h1>${escapeHtml(words.title)}</h1>
<p>${escapeHtml(words.text)}</p>
<form method="post" action="/portal/session/${escapeHtml(token)}">
<button type="submit">${escapeHtml(words.button)}</button>
</form>`;
  return page(locale, words.title, body);
}
