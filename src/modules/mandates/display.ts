import type { MandateRow } from './repository';
import { normalizeIban } from './iban';

/**
 * An IBAN as customers may see it: the country code and the last four characters, the rest as
 * stars, in the groups of four an IBAN is printed in, so the customer recognises their account
 * without the page or mail showing it: `NL91ABNA0417164300` → `NL** **** **** **43 00`.
 */
export function maskedIban(iban: string): string {
  const electronic = normalizeIban(iban);
  if (electronic.length <= 6) return '*'.repeat(electronic.length);
  const masked = `${electronic.slice(0, 2)}${'*'.repeat(electronic.length - 6)}${electronic.slice(-4)}`;
  return masked.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A card's last four digits after its brand: `Visa •••• 1234`. */
function cardLabel(label: string | null, number: string | null): string {
  const lastFour = (number ?? '').replace(/\D/g, '').slice(-4);
  return [label?.trim() || 'Card', lastFour ? `•••• ${lastFour}` : ''].filter(Boolean).join(' ');
}

export type DisplayedMandate = Pick<MandateRow, 'method' | 'consumer_account' | 'card_label' | 'card_number'>;

/** How a mandate is named to its customer (portal, confirmation e-mails): never the whole IBAN or card number. */
export function mandateLabel(mandate: DisplayedMandate): string {
  switch (mandate.method) {
    case 'directdebit':
      return mandate.consumer_account ? maskedIban(mandate.consumer_account) : 'SEPA Direct Debit';
    case 'creditcard':
      return cardLabel(mandate.card_label, mandate.card_number);
  }
}
