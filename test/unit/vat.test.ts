import { vatCents } from '../../src/money/vat';

describe('VAT of an invoice line, rounded half-up per line', () => {
  it.each<[number, string | null, number]>([
    [1250, '21', 263], // 262.5 → 263
    [1500, '9', 135],
    [999, '9.5', 95], // 94.905 → 95
    [1, '50', 1], // 0.5 → 1
    [3, '10', 0], // 0.3 → 0
    [-250, '21', -53], // a discount rounds like its charge: -52.5 → -53
    [10000, '0', 0],
    [10000, null, 0],
    [12345, '21.25', 2623], // 2623.3125 → 2623
  ])('%i cents at %s%% is %i cents', (amount, percentage, expected) => {
    expect(vatCents(amount, percentage)).toBe(expected);
  });
});
