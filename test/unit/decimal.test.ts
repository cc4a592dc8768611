import fc from 'fast-check';
import { scaledInteger } from '../../src/numbers/decimal';

describe('scaledInteger', () => {
  it.each([
    [12.5, 2, 1250],
    [21, 2, 2100],
    [5.25, 2, 525],
    [0.01, 2, 1],
    [-0.05, 2, -5],
    [7, 0, 7],
    [1.5, 1, 15],
    [0.001, 3, 1],
    [1000.001, 3, 1000001],
    [100, 2, 10000],
    [1e-7, 7, 1],
    [1.5e-7, 8, 15],
    [12345678901.23, 2, 1234567890123],
  ])('When %p is scaled by 10^%p, then it is exactly %p', (value, decimals, scaled) => {
    expect(scaledInteger(value, decimals)).toBe(scaled);
  });

  it.each([
    [1000.001, 2],
    [12345.678, 2],
    [21.005, 2],
    [0.1 + 0.2, 2],
    [19.990000000000002, 2],
    [1.5, 0],
    [1e-7, 2],
    [1e-7, 6],
  ])('When %p has more than %p decimals, then it is refused (null)', (value, decimals) => {
    expect(scaledInteger(value, decimals)).toBeNull();
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e21, 1e300, -1e300, Number.MAX_VALUE, 2 ** 53])(
    'When %p is not finite or its scaled value is beyond the safe integers, then it is refused',
    (value) => {
      expect(scaledInteger(value, 2)).toBeNull();
    },
  );

  it('When the value is -0 or rounds to zero, then the answer is 0 and never -0', () => {
    expect(Object.is(scaledInteger(-0, 2), 0)).toBe(true);
    expect(Object.is(scaledInteger(-0.001 + 0.001, 2), 0)).toBe(true);
  });

  it('When the value is at the safe-integer limit, then the limit itself is accepted and one past it refused', () => {
    expect(scaledInteger(Number.MAX_SAFE_INTEGER, 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(scaledInteger(-Number.MAX_SAFE_INTEGER, 0)).toBe(-Number.MAX_SAFE_INTEGER);
    expect(scaledInteger(Number.MAX_SAFE_INTEGER + 1, 0)).toBeNull();
  });

  it('When any safe integer is divided by 10^decimals, then scaling gives the integer back', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e14, max: 1e14 }), fc.integer({ min: 0, max: 4 }), (integer, decimals) => {
        expect(scaledInteger(integer / 10 ** decimals, decimals)).toBe(integer === 0 ? 0 : integer);
      }),
    );
  });

  it('When a value has a digit below the wanted decimals, then it is refused whatever its size', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 1, max: 9 }), (cents, thirdDecimal) => {
        const value = Number(
          `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}${thirdDecimal}`,
        );
        expect(scaledInteger(value, 2)).toBeNull();
      }),
    );
  });
});
