import { PaymentStatus as MolliePaymentStatus } from '@mollie/api-client';
import { ProviderFailedError } from '../../src/providers/errors';
import { centsFromValue, isLocalUrl, paymentStatusFrom } from '../../src/providers/mollie/transformers';

describe('Mollie transformers', () => {
  it.each([
    ['12.50', 1250],
    ['0.01', 1],
    ['1000.00', 100000],
    ['1000', 100000],
    ['5.5', 550],
    ['1234567.89', 123456789],
    ['-0.05', -5],
    ['0.00', 0],
  ])('When Mollie sends the amount %p, then it is exactly %p cents', (value, cents) => {
    expect(centsFromValue(value)).toBe(cents);
  });

  it.each(['12,50', '1.234', '', 'EUR 5.00', '1e3'])('When Mollie sends the amount %p, then it is refused as unexpected', (value) => {
    expect(() => centsFromValue(value)).toThrow(ProviderFailedError);
  });

  const eur = (value: string) => ({ value, currency: 'EUR' });

  it.each([
    [MolliePaymentStatus.open, 'open'],
    [MolliePaymentStatus.pending, 'pending'],
    [MolliePaymentStatus.authorized, 'authorized'],
    [MolliePaymentStatus.paid, 'paid'],
    [MolliePaymentStatus.canceled, 'canceled'],
    [MolliePaymentStatus.expired, 'expired'],
    [MolliePaymentStatus.failed, 'failed'],
  ])('When the Mollie status is %p with nothing refunded or charged back, then ours is %p', (status, ours) => {
    expect(paymentStatusFrom({ status, amount: eur('10.00'), amountRefunded: eur('0.00') })).toBe(ours);
  });

  it('When a paid payment is refunded in full, then it is refunded; in part, then it stays paid', () => {
    expect(paymentStatusFrom({ status: MolliePaymentStatus.paid, amount: eur('10.00'), amountRefunded: eur('10.00') })).toBe('refunded');
    expect(paymentStatusFrom({ status: MolliePaymentStatus.paid, amount: eur('10.00'), amountRefunded: eur('9.99') })).toBe('paid');
  });

  it('When money was charged back, then it is charged_back, also after a refund', () => {
    expect(paymentStatusFrom({ status: MolliePaymentStatus.paid, amount: eur('10.00'), amountChargedBack: eur('10.00') })).toBe(
      'charged_back',
    );
    expect(
      paymentStatusFrom({
        status: MolliePaymentStatus.paid,
        amount: eur('10.00'),
        amountRefunded: eur('10.00'),
        amountChargedBack: eur('0.01'),
      }),
    ).toBe('charged_back');
    expect(paymentStatusFrom({ status: MolliePaymentStatus.paid, amount: eur('10.00'), amountChargedBack: eur('0.00') })).toBe('paid');
  });

  it('When Mollie reports a status we do not know, then it is a provider error rather than a guess', () => {
    const status = 'settled' as MolliePaymentStatus;
    expect(() => paymentStatusFrom({ status, amount: eur('10.00') })).toThrow(ProviderFailedError);
  });

  it.each([
    ['http://localhost:3000/webhooks/mollie', true],
    ['http://127.0.0.1/webhooks/mollie', true],
    ['http://127.1.2.3:8080/x', true],
    ['http://[::1]:3000/x', true],
    ['http://0.0.0.0:3000/x', true],
    ['http://api.localhost/x', true],
    ['https://pay.example.nl/webhooks/mollie', false],
    ['http://rps.test/webhooks/mollie', false],
    ['https://localhost.example.nl/x', false],
  ])('When the webhook URL is %p, then it is local: %p', (url, local) => {
    expect(isLocalUrl(url)).toBe(local);
  });
});
