import fc from 'fast-check';
import { centsFromDecimalString, centsFromNumber, formatCents, formatNullableCents } from '../../src/money';

describe('centsFromNumber', () => {
  it.each([
    [19.99, 1999],
    [12.5, 1250],
    [12, 1200],
    [0.01, 1],
    [0, 0],
    [1.15, 115],
    [-5.5, -550],
    [-0.01, -1],
    [10_000_000_000_000, 1_000_000_000_000_000],
    [12345678901.23, 1234567890123],
    [99999999999.99, 9999999999999],
    [-12345678901.23, -1234567890123],
    [90071992547409.9, 9007199254740990],
  ])('When the amount is %p, then it is %p cents', (amount, cents) => {
    expect(centsFromNumber(amount)).toBe(cents);
  });

  it.each([12.345, 0.001, 1.005, 19.999, -0.005, 1000.001, 12345.678, 99999999999.999, -1000.001])(
    'When the amount %p has a third decimal, then it is refused (null), however large the amount',
    (amount) => {
      expect(centsFromNumber(amount)).toBeNull();
    },
  );

  it.each([0.1 + 0.2, 19.990000000000002, 1e-7, 1.5e-7, -1e-7, 5e-324])(
    'When the amount %p has more than two decimals in its shortest decimal text, then it is refused: there is no tolerance',
    (amount) => {
      expect(centsFromNumber(amount)).toBeNull();
    },
  );

  it('When the amount is -0, then it is 0 cents and never -0', () => {
    expect(Object.is(centsFromNumber(-0), 0)).toBe(true);
    expect(Object.is(centsFromNumber(-0.001 + 0.001), 0)).toBe(true);
  });

  it.each([
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    1e15,
    -1e15,
    90071992547409.92,
    1e21,
    -1e21,
    1e300,
    Number.MAX_VALUE,
  ])('When the amount %p is not finite or its cents are beyond the safe integers, then it is refused', (amount) => {
    expect(centsFromNumber(amount)).toBeNull();
  });

  it('When any whole number of cents is written with two decimals, then it converts back to the same cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        expect(centsFromNumber(Number(formatCents(cents)))).toBe(cents);
        expect(centsFromNumber(cents / 100)).toBe(cents);
      }),
    );
  });
});

describe('formatCents', () => {
  it.each([
    [1999, '19.99'],
    [1250, '12.50'],
    [100, '1.00'],
    [5, '0.05'],
    [0, '0.00'],
    [-0, '0.00'],
    [-5, '-0.05'],
    [-1250, '-12.50'],
    [123456789, '1234567.89'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
    [-Number.MAX_SAFE_INTEGER, '-90071992547409.91'],
  ])('When %p cents are formatted, then the string is %p', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it('When cents are formatted, then the string always has exactly two decimals and no exponent', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (cents) => {
        expect(formatCents(cents)).toMatch(/^-?\d+\.\d{2}$/);
      }),
    );
  });

  it('When the amount is null, then formatNullableCents gives null', () => {
    expect(formatNullableCents(null)).toBeNull();
    expect(formatNullableCents(1)).toBe('0.01');
  });
});

describe('centsFromDecimalString', () => {
  it.each([
    ['12.50', 1250],
    ['1000.00', 100000],
    ['1000', 100000],
    ['0.1', 10],
    ['0.05', 5],
    ['-0.05', -5],
    ['-0.00', 0],
    [' 9.95 ', 995],
  ])('When the string is %p, then it is %p cents exactly', (text, cents) => {
    expect(centsFromDecimalString(text)).toBe(cents);
    expect(Object.is(centsFromDecimalString(text), -0)).toBe(false);
  });

  it.each(['', '12.', '.50', '12.345', '1e3', '12,50', 'abc', '--1', '12345678901234.00'])(
    'When the string is %p, then it is refused (null)',
    (text) => {
      expect(centsFromDecimalString(text)).toBeNull();
    },
  );

  it('When cents are formatted and read back, then they are the same cents', () => {
    for (const cents of [0, 1, 99, 100, 1250, -5, 123456789]) expect(centsFromDecimalString(formatCents(cents))).toBe(cents);
  });
});
