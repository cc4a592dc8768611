import { errorMessage } from '../../src/errors';

describe('errorMessage', () => {
  it("When an Error was thrown, then it gives the error's message", () => {
    expect(errorMessage(new TypeError('no such row'))).toBe('no such row');
  });

  it('When something else was thrown or rejected with, then it gives that as text', () => {
    expect([errorMessage('refused'), errorMessage(42), errorMessage(undefined), errorMessage({ toString: () => 'an object' })]).toEqual([
      'refused',
      '42',
      'undefined',
      'an object',
    ]);
  });
});
