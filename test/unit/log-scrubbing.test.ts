import { createLogger, scrubPersonalData } from '../../src/logger';
import { MemoryTransport } from '../support/testApp';

describe('scrubPersonalData', () => {
  it.each([
    ['mail jan@example.nl failed', 'mail [email] failed'],
    ["values ('Jan.Jansen+shop@mail.example.co.uk', 'x')", "values ('[email]', 'x')"],
    ['to: renée@exämple.de', 'to: [email]'],
    ['https://shop.example/thanks?email=jan@example.nl&x=1', 'https://shop.example/thanks?email=[email]&x=1'],
  ])('When a string holds an e-mail address (%p), then it reads %p', (text, scrubbed) => {
    expect(scrubPersonalData(text)).toBe(scrubbed);
  });

  it.each([
    ["values ('NL91ABNA0417164300', 'x')", "values ('[iban]', 'x')"],
    ['account NL91 ABNA 0417 1643 00 refused', 'account [iban] refused'],
    ['DE89370400440532013000', '[iban]'],
    ['BE71 0961 2345 6769', '[iban]'],
    ['mistyped NL00ABNA0417164399 too', 'mistyped [iban] too'],
  ])('When a string holds an IBAN (%p), then it reads %p', (text, scrubbed) => {
    expect(scrubPersonalData(text)).toBe(scrubbed);
  });

  it.each([
    ["Duplicate entry 'jan@example.nl' for key 'customers.email'", "Duplicate entry '[redacted]' for key 'customers.email'"],
    [
      "insert into `customers` (...) values (?, ?) - Duplicate entry 'Jan's shop' for key 'customers_number_unique'",
      "insert into `customers` (...) values (?, ?) - Duplicate entry '[redacted]' for key 'customers_number_unique'",
    ],
    ["Duplicate entry 'acc_1-Jansen' for key 'name'", "Duplicate entry '[redacted]' for key 'name'"],
    ["Duplicate entry 'cut off without a key", "Duplicate entry '[redacted]'"],
  ])('When MySQL names a duplicated value (%p), then the value is masked', (text, scrubbed) => {
    expect(scrubPersonalData(text)).toBe(scrubbed);
  });

  it.each([
    'cus_4fJ9aZ0bQ1xY2wV3',
    'pay_AB12CDEFGHIJKLMNOP',
    'sub_NL91ABNA0417164300',
    'tr_WDqYK6vllg',
    'cst_8wmqcHMN4U',
    'mdt_pWUnw6pkBN',
    'pfl_QkEhN94Ba',
    '2026-11-21T23:30:00.000Z',
    '2026-11-21 10:00:00',
    'https://api.mollie.com/v2/payments/tr_WDqYK6vllg?testmode=true',
    'mysql://root@127.0.0.1:3306/test',
    'https://medium.example/@jan',
    'UNIQUE constraint failed: customers.id',
    'f47ac10b-58cc-4372-a567-0e02b2c3d479',
    'sha256=ab12cdef0123456789abcdef0123456789abcdef0123456789abcdef01234567',
    'node-cron: job billing started',
  ])('When a string holds only ids, dates or addresses without e-mail (%p), then it is untouched', (text) => {
    expect(scrubPersonalData(text)).toBe(text);
  });

  it('When a bearer token is in the text, then it is masked as before', () => {
    expect(scrubPersonalData('token rps_abcdefgh12345678 used')).toBe('token rps_[redacted] used');
  });
});

describe('the log format', () => {
  function logOnce(message: string, fields: Record<string, unknown>): Record<string, unknown> {
    const logger = createLogger('debug');
    const memory = new MemoryTransport();
    logger.clear();
    logger.add(memory);
    logger.error(message, fields);
    expect(memory.lines).toHaveLength(1);
    return JSON.parse(memory.lines[0] ?? '{}') as Record<string, unknown>;
  }

  it('When personal data is in the message and in fields at any depth, then every copy is scrubbed and ids stay', () => {
    const deep: Record<string, unknown> = { email: 'deep@example.nl' };
    let nested: Record<string, unknown> = deep;
    for (let level = 0; level < 8; level += 1) nested = { level: nested };
    const line = logOnce('mail to jan@example.nl failed', {
      customerId: 'cus_4fJ9aZ0bQ1xY2wV3',
      at: '2026-11-21T10:00:00Z',
      error: "values ('NL91ABNA0417164300') - Duplicate entry 'x@example.nl' for key 'email'",
      attempts: [{ to: 'a@example.nl' }, 'NL91 ABNA 0417 1643 00'],
      nested,
    });
    const text = JSON.stringify(line);
    expect(text).not.toMatch(/@example\.nl|NL91/);
    expect(line).toMatchObject({
      message: 'mail to [email] failed',
      customerId: 'cus_4fJ9aZ0bQ1xY2wV3',
      at: '2026-11-21T10:00:00Z',
      error: "values ('[iban]') - Duplicate entry '[redacted]' for key 'email'",
      attempts: [{ to: '[email]' }, '[iban]'],
    });
    expect(text).toContain('[email]');
  });

  it('When secret keys are logged, then their values are redacted as before', () => {
    const line = logOnce('provider settings', {
      apiKey: 'live_abc',
      nested: { webhook_secret: 'whsec', iban: 'x' },
      token: 'rps_abcdefgh1234',
    });
    expect(line).toMatchObject({ apiKey: '[redacted]', nested: { webhook_secret: '[redacted]', iban: '[redacted]' }, token: '[redacted]' });
  });

  it('When an object refers to itself, then the line is still written', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    expect(logOnce('cyclic', { loop })).toMatchObject({ loop: { name: 'loop', self: '[circular]' } });
  });
});
