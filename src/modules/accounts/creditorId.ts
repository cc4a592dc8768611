/**
 * The SEPA creditor identifier (EPC262-08, "Creditor Identifier Overview"): a country code, two
 * check digits, a three-character creditor business code and the national identifier, e.g.
 * `NL00ZZZ123456780000` or `DE98ZZZ09999999999`. The check digits are ISO 7064 mod 97-10 over the
 * national identifier followed by the country code and `00`, as for an IBAN, but without the
 * business code: the creditor may change that code freely, so it is not part of the check.
 */

const CREDITOR_ID_SHAPE = /^([A-Z]{2})(\d{2})([A-Z0-9]{3})([A-Z0-9]{1,28})$/;

/** The electronic form: no spaces, upper case. */
export function normalizeCreditorId(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** `digits` (0-9, A-Z as 10-35) modulo 97, digit by digit: the number is far beyond 2^53. */
function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const value = Number.parseInt(char, 36);
    remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
  }
  return remainder;
}

/** True for a creditor identifier in electronic form (see normalizeCreditorId) whose check digits are right. */
export function isValidCreditorId(creditorId: string): boolean {
  const parts = CREDITOR_ID_SHAPE.exec(creditorId);
  if (!parts) return false;
  const [, country = '', check = '', , nationalId = ''] = parts;
  return 98 - mod97(`${nationalId}${country}00`) === Number(check);
}
