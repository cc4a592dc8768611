import { canMoveTo } from '../../src/modules/payments/transitions';

describe('payment status transitions', () => {
  it('When a payment is paid, then a late expired, failed or canceled report cannot undo it', () => {
    for (const late of ['expired', 'failed', 'canceled', 'open', 'pending', 'authorized'] as const) {
      expect(canMoveTo('paid', late)).toBe(false);
    }
  });

  it('When a payment is open or pending, then it can move to any final status', () => {
    for (const from of ['open', 'pending', 'authorized'] as const) {
      for (const to of ['paid', 'failed', 'canceled', 'expired'] as const) expect(canMoveTo(from, to)).toBe(true);
    }
  });

  it('When money comes back, then only a paid payment can become refunded or charged back', () => {
    expect(canMoveTo('paid', 'refunded')).toBe(true);
    expect(canMoveTo('paid', 'charged_back')).toBe(true);
    expect(canMoveTo('failed', 'charged_back')).toBe(false);
    expect(canMoveTo('open', 'refunded')).toBe(false);
  });

  it('When the same status is reported twice, then nothing moves', () => {
    expect(canMoveTo('pending', 'pending')).toBe(false);
    expect(canMoveTo('paid', 'paid')).toBe(false);
  });
});

describe('payment status transitions around the provider call', () => {
  it('When a payment is still creating, then whatever the provider says it is becomes its status', () => {
    for (const to of [
      'open',
      'pending',
      'authorized',
      'paid',
      'failed',
      'canceled',
      'expired',
      'refunded',
      'charged_back',
      'rejected',
    ] as const) {
      expect(canMoveTo('creating', to)).toBe(true);
    }
  });

  it('When the provider refused a payment, then nothing can follow, and nothing goes back to creating', () => {
    for (const to of ['open', 'pending', 'paid', 'failed', 'refunded', 'charged_back', 'creating'] as const) {
      expect(canMoveTo('rejected', to)).toBe(false);
    }
    for (const from of ['open', 'paid', 'failed'] as const) expect(canMoveTo(from, 'creating')).toBe(false);
  });
});
