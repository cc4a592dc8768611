import { isValidIban, normalizeIban } from '../../src/modules/mandates/iban';

describe('IBAN', () => {
  it.each([
    'NL91ABNA0417164300',
    'BE68539007547034',
    'DE89370400440532013000',
    'FR1420041010050500013M02606',
    'GB29NWBK60161331926819',
    'NO9386011117947',
    'MT84MALT011000012345MTLCAST001S',
    'LC55HEMM000100010012001200023015',
    'RU0304452522540817810538091310419',
  ])('When %s is a correct IBAN, then it is valid', (iban) => {
    expect(isValidIban(iban)).toBe(true);
  });

  it('When the check digits do not match the account, then it is invalid', () => {
    expect(isValidIban('NL92ABNA0417164300')).toBe(false);
    // One digit of the account mistyped.
    expect(isValidIban('NL91ABNA0417164301')).toBe(false);
    // Two digits swapped.
    expect(isValidIban('NL91ABNA0471164300')).toBe(false);
  });

  it("When the checksum is right but the length is not the country's, then it is invalid", () => {
    // A Dutch IBAN is 18 characters; these pass mod-97 with one character more or fewer.
    expect(isValidIban('NL06ABNA04171643001')).toBe(false);
    expect(isValidIban('NL58ABNA041716430')).toBe(false);
    // The Belgian length (16) under a Dutch prefix.
    expect(isValidIban('NL08ABNA01234567')).toBe(false);
  });

  it('When the country is not in the IBAN registry, then it is invalid even with correct check digits', () => {
    // US would be valid by mod-97 alone.
    expect(isValidIban('US64SVBKUS6S3300958879')).toBe(false);
  });

  it.each(['', 'NL', 'NL91', '91ABNA0417164300NL', 'NL91ABNA04171643-0', 'nl91abna0417164300', 'NL91 ABNA 0417 1643 00'])(
    'When %p is not in electronic form, then it is invalid',
    (text) => {
      expect(isValidIban(text)).toBe(false);
    },
  );

  it('When an IBAN is written in groups, lower case or with tabs, then normalizing gives the electronic form', () => {
    expect(normalizeIban(' nl91 abna 0417\t1643 00 ')).toBe('NL91ABNA0417164300');
    expect(isValidIban(normalizeIban('be68 5390 0754 7034'))).toBe(true);
  });
});
