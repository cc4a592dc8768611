import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isValidIban, normalizeIban } from '../../src/modules/mandates/iban';
import { decodeMagicIban, settleDebit } from '../../src/providers/sandbox/outcomes';

/**
 * The sandbox's magic IBANs as docs/providers.md documents them: every example there is a valid IBAN the
 * API accepts and decodes to the rule, debit and days its row says; and each rule ends debits as described.
 */

const PROVIDERS_DOC = path.resolve(__dirname, '../../docs/providers.md');

/** The rows of the examples table: `| \`NL.. SNDB ..\` | \`rule\` | debit | days | … |`. */
function documentedExamples(): Array<{ iban: string; rule: string; debit: number; days: number }> {
  const markdown = readFileSync(PROVIDERS_DOC, 'utf8');
  return [...markdown.matchAll(/^\| `(NL\d{2} SNDB[\d ]+)` \| `([a-z0-9-]+)` \| (\d+) \| (\d+) \|/gm)].map((match) => ({
    iban: match[1] ?? '',
    rule: match[2] ?? '',
    debit: Number(match[3]),
    days: Number(match[4]),
  }));
}

describe('the sandbox magic IBANs', () => {
  const examples = documentedExamples();

  it('When docs/providers.md is read, then it has an example of every rule', () => {
    expect(new Set(examples.map((example) => example.rule))).toEqual(new Set(['am04-once', 'am04-from', 'md01-once', 'md06-chargeback']));
  });

  it.each(examples.map((example) => [example.iban, example]))(
    'When the documented example %s is decoded, then it is a valid IBAN with the documented rule',
    (iban, example) => {
      expect(isValidIban(normalizeIban(String(iban)))).toBe(true);
      expect(decodeMagicIban(String(iban))).toEqual({ rule: example.rule, debit: example.debit, days: example.days });
    },
  );

  it('When an IBAN is not of the sandbox bank or names no rule, then it is not magic', () => {
    expect(decodeMagicIban('NL91ABNA0417164300')).toBeNull();
    expect(decodeMagicIban('NL16SNDB0099030000')).toBeNull(); // no rule 99
    expect(decodeMagicIban('NL16SNDB0004000000')).toBeNull(); // no debit 0
    expect(decodeMagicIban(null)).toBeNull();
  });

  it('When the debits of each rule settle, then they end as documented; the rest by the cents rules', () => {
    const codes = (iban: string, amount = 1250) =>
      [1, 2, 3, 4].map((debit) => {
        const outcome = settleDebit(amount, 'directdebit', iban, debit);
        return outcome.failure_code ?? (outcome.chargeBackAfterDays !== null ? `paid, MD06 after ${outcome.chargeBackAfterDays}` : 'paid');
      });
    expect(codes('NL16 SNDB 0004 0300 00')).toEqual(['paid', 'paid', 'AM04', 'paid']);
    expect(codes('NL50 SNDB 0014 0200 00')).toEqual(['paid', 'AM04', 'AM04', 'AM04']);
    expect(codes('NL21 SNDB 0001 0200 00')).toEqual(['paid', 'MD01', 'paid', 'paid']);
    expect(codes('NL62 SNDB 0006 0103 00')).toEqual(['paid, MD06 after 3', 'paid', 'paid', 'paid']);
    expect(codes('NL16 SNDB 0004 0300 00', 966)).toEqual(['MD01', 'MD01', 'AM04', 'MD01']);
    // A card has no IBAN: cents only.
    expect(settleDebit(1250, 'creditcard', 'NL16SNDB0004030000', 3).status).toBe('paid');
  });
});
