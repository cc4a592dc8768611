import type { PageLocale } from '../../i18n/locales';
import { formatMoneyFor } from '../../money/forLocale';
import { amountDueNow, type PublicLink, type UnpayableReason } from '../../modules/links/checkout';
import { firstRegularChargeDate, trialOf } from '../../modules/links/regularCharges';
import { linkRulesOf } from '../../modules/links/rules';
import { escapeHtml } from '../../text/html';
import { renderPage } from '../html';
import { PAY_STRINGS, trialWords } from './strings';
import { utcMidnightOf } from '../../time/calendar';

export const STYLESHEET = '/pay/assets/pay.css';

/** What the buyer typed, and what was wrong with it, kept when the form comes back. */
export interface BuyerForm {
  values: { first_name: string; last_name: string; email: string };
  errors: Partial<Record<'first_name' | 'last_name' | 'email', string>>;
}

const EMPTY_FORM: BuyerForm = { values: { first_name: '', last_name: '', email: '' }, errors: {} };

const merchantOf = ({ account }: Pick<PublicLink, 'account'>) => account.display_name ?? account.name;

const dateFor = (locale: PageLocale, ymd: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    utcMidnightOf(ymd.slice(0, 10)),
  );

function regularCharges(locale: PageLocale, found: PublicLink, today: string): string {
  const { link } = found;
  const words = PAY_STRINGS[locale];
  const rules = linkRulesOf(link);
  const [first] = rules;
  if (!first) return '';
  const trial = trialOf(link);
  // Without a trial the payment made now is the first of the first rule's `times`: what follows is one fewer.
  const later = rules
    .map((rule, index) => ({ rule, times: rule.times && index === 0 && !trial ? rule.times - 1 : rule.times }))
    .filter(({ times }) => times !== 0);
  if (!later.length) return '';
  const items = later.map(({ rule, times }) => {
    const how = times ? words.times(times) : words.untilCancelled;
    const regular = words.thenRegular(formatMoneyFor(locale, rule.amount, link.currency), words.every(rule.interval_amount, rule.interval));
    return `<li>${escapeHtml(regular)}, ${escapeHtml(how)}</li>`;
  });
  const firstCharge = firstRegularChargeDate(link, rules, today);
  const notes = firstCharge ? [words.firstRegularCharge(dateFor(locale, firstCharge))] : [];
  if (trial) notes.unshift(words.trial(trialWords(locale, trial.count, trial.unit)));
  return `<ul class="regular">${items.join('')}</ul>${notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('')}`;
}

/**
 * What the buyer agrees to by paying (SEPA rulebook): the regular charges (listed above) are
 * collected under the mandate this payment creates, and how to stop them. A mandate link authorises
 * future charges the same way.
 */
function agreement(locale: PageLocale, found: PublicLink): string {
  const words = PAY_STRINGS[locale].agreement;
  const merchant = merchantOf(found);
  const subscription = found.link.type === 'subscription';
  const paragraphs = [
    `<p>${escapeHtml(subscription ? words.collectedBy(merchant) : words.mandateBy(merchant))}</p>`,
    `<p>${escapeHtml(words.cancelHow(merchant))} <a href="/portal">${escapeHtml(words.portalLink)}</a></p>`,
  ];
  return `<section class="agreement" aria-labelledby="agreement-title">
<h2 id="agreement-title">${escapeHtml(words.title)}</h2>
${paragraphs.join('\n')}
</section>`;
}

/** The merchant's contact address, when the account set one. */
function contact(locale: PageLocale, found: PublicLink): string {
  const email = found.account.contact_email;
  if (!email) return '';
  return `<p class="note">${escapeHtml(PAY_STRINGS[locale].contact)} <a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a></p>`;
}

function field(name: keyof BuyerForm['values'], label: string, type: string, autocomplete: string, form: BuyerForm): string {
  const error = form.errors[name];
  const described = error ? ` aria-invalid="true" aria-describedby="${name}-error"` : '';
  const valueAttribute = `value="${escapeHtml(form.values[name])}"`;
  return `<div class="field">
<label for="${name}">${escapeHtml(label)}</label>
<input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required maxlength="191" ${valueAttribute}${described}>
${error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : ''}
</div>`;
}

/** The pay form: name and e-mail when the link was not made for a known customer, then the button. */
function payForm(locale: PageLocale, found: PublicLink, form: BuyerForm): string {
  const words = PAY_STRINGS[locale];
  const amount = formatMoneyFor(locale, amountDueNow(found.link), found.link.currency);
  const hasErrors = Object.keys(form.errors).length > 0;
  const details = found.customer
    ? ''
    : `<fieldset><legend>${escapeHtml(words.yourDetails)}</legend>
${field('first_name', words.firstName, 'text', 'given-name', form)}
${field('last_name', words.lastName, 'text', 'family-name', form)}
${field('email', words.email, 'email', 'email', form)}
</fieldset>`;
  return `<form method="post" action="/pay/${escapeHtml(found.link.id)}" novalidate>
${hasErrors ? `<p class="error" role="alert">${escapeHtml(words.fixErrors)}</p>` : ''}${details}
<button type="submit">${escapeHtml(words.payButton(amount))}</button>
</form>`;
}

/** The hosted page of an open link. */
export function linkPage(locale: PageLocale, found: PublicLink, today: string, form: BuyerForm = EMPTY_FORM): string {
  const { link } = found;
  const words = PAY_STRINGS[locale];
  const parts = [
    `<h1>${escapeHtml(words.payTo(merchantOf(found)))}</h1>`,
    `<p class="description">${escapeHtml(link.description)}</p>`,
    `<p class="label">${escapeHtml(words.payNow)}</p>` +
      `<p class="amount">${escapeHtml(formatMoneyFor(locale, amountDueNow(found.link), link.currency))}</p>`,
  ];
  if (link.type === 'subscription') parts.push(regularCharges(locale, found, today));
  if (link.type === 'mandate') parts.push(`<p class="note">${escapeHtml(words.mandateNote)}</p>`);
  if (link.expires_at) parts.push(`<p class="note">${escapeHtml(words.expiresOn(dateFor(locale, link.expires_at)))}</p>`);
  if (link.type === 'subscription' || link.type === 'mandate') parts.push(agreement(locale, found));
  parts.push(contact(locale, found));
  parts.push(payForm(locale, found, form));
  return renderPage({ locale, title: words.payTo(merchantOf(found)), body: parts.filter(Boolean).join('\n'), stylesheet: STYLESHEET });
}

/** A page with a title and one sentence: gone, not found, thanks, provider down, still waiting. */
export function messagePage(
  locale: PageLocale,
  message: { title: string; text: string },
  options: { refreshSeconds?: number; extra?: string } = {},
): string {
  return renderPage({
    locale,
    title: message.title,
    body: `<h1>${escapeHtml(message.title)}</h1>\n<p>${escapeHtml(message.text)}</p>${options.extra ?? ''}`,
    refreshSeconds: options.refreshSeconds,
    stylesheet: STYLESHEET,
  });
}

export const gonePage = (locale: PageLocale, reason: UnpayableReason) => messagePage(locale, PAY_STRINGS[locale].gone[reason]);

/** A payment of the link is under way: no pay button, and a way to look again (the page also refreshes itself). */
export function inProgressPage(locale: PageLocale, found: Pick<PublicLink, 'link'>): string {
  const words = PAY_STRINGS[locale].inProgress;
  return messagePage(locale, words, { extra: `\n<p><a href="/pay/${escapeHtml(found.link.id)}">${escapeHtml(words.checkAgain)}</a></p>` });
}

/** The try-again page: what happened, and the pay button again while the link can still be paid. */
export function failedPage(locale: PageLocale, found: PublicLink | null): string {
  const words = PAY_STRINGS[locale].failed;
  return messagePage(locale, words, { extra: found ? `\n<h2>${escapeHtml(words.again)}</h2>\n${payForm(locale, found, EMPTY_FORM)}` : '' });
}
