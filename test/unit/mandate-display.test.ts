import { mandateLabel, maskedIban } from '../../src/modules/mandates/display';

describe('masked IBANs', () => {
  it.each([
    ['NL91ABNA0417164300', 'NL** **** **** **43 00'],
    ['NL91 ABNA 0417 1643 00', 'NL** **** **** **43 00'],
    ['nl91abna0417164300', 'NL** **** **** **43 00'],
    ['DE89370400440532013000', 'DE** **** **** **** **30 00'],
    ['BE68539007547034', 'BE** **** **** 7034'],
    ['FR1420041010050500013M02606', 'FR** **** **** **** **** ***2 606'],
    ['NO9386011117947', 'NO** **** ***7 947'],
  ])('When %s is masked, then only the country code and the last four characters show: %s', (iban, masked) => {
    expect(maskedIban(iban)).toBe(masked);
    expect(maskedIban(iban).replace(/[\s*]/g, '')).toHaveLength(6);
  });

  it('When the text is too short to be an IBAN, then nothing of it shows', () => {
    expect(maskedIban('NL91')).toBe('****');
  });
});

describe('mandate labels', () => {
  const none = { consumer_account: null, card_label: null, card_number: null };

  it('When a direct-debit mandate is named, then it is its masked IBAN', () => {
    expect(mandateLabel({ ...none, method: 'directdebit', consumer_account: 'NL91ABNA0417164300' })).toBe('NL** **** **** **43 00');
    expect(mandateLabel({ ...none, method: 'directdebit' })).toBe('SEPA Direct Debit');
  });

  it('When a card mandate is named, then it is the brand and the last four digits', () => {
    expect(mandateLabel({ ...none, method: 'creditcard', card_label: 'Visa', card_number: '1234' })).toBe('Visa •••• 1234');
    expect(mandateLabel({ ...none, method: 'creditcard', card_label: 'Mastercard', card_number: '5555444433331111' })).toBe(
      'Mastercard •••• 1111',
    );
    expect(mandateLabel({ ...none, method: 'creditcard' })).toBe('Card');
  });
});
