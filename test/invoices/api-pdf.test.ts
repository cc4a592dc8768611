import type { Response as AgentResponse } from 'superagent';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { billAndSettle } from '../support/invoices';

const ARTIFACTS = path.join(__dirname, '..', 'artifacts');

/** The text of a PDF, as pdftotext reads it (layout kept, so a label and its value share a line). */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'invoice-'));
  const file = path.join(dir, 'invoice.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** supertest's parser for a binary body: on Node its response is the incoming message stream. */
const binary = (res: AgentResponse, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

const WORDS: Record<string, string[]> = {
  en: ['Invoice', 'Total excluding VAT', 'VAT 21%', 'Payment reference', 'December 1, 2026'],
  nl: ['Factuur', 'Totaal exclusief btw', 'Btw 21%', 'Betalingskenmerk', '1 december 2026'],
  de: ['Rechnung', 'Summe ohne MwSt.', 'MwSt. 21%', 'Zahlungsreferenz', '1. Dezember 2026'],
  fr: ['Facture', 'Total hors TVA', 'TVA 21%', 'Référence de paiement', '1 décembre 2026'],
  es: ['Factura', 'Total sin IVA', 'IVA 21%', 'Referencia de pago', '1 de diciembre de 2026'],
};

describe.each(TEST_DATABASES)('the invoices API and PDFs on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let accountName: string;

  beforeEach(async () => {
    accountName = `Invoice API ${Math.random().toString(36).slice(2, 8)}`;
    ({ token, accountId } = await t.newAccount(accountName));
    const set = [
      '--prefix',
      'A-',
      '--vat',
      '21',
      '--address',
      'Keizersgracht 1',
      '--city',
      'Amsterdam',
      '--country',
      'NL',
      '--vat-number',
      'NL123456789B01',
    ];
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, ...set)).code).toBe(0);
  });

  it('When customers in five languages pay, then the API lists the invoices and each PDF is in their language', async () => {
    const customers: Record<string, string> = {};
    for (const locale of Object.keys(WORDS)) {
      const { customerId } = await subscribe(t, token, { email: `${locale}@example.nl` });
      await t.ctx.db('customers').where({ id: customerId }).update({ locale });
      customers[locale] = customerId;
    }
    await billAndSettle(t, accountId, '2026-12-01');

    const list = await t.as(token).get('/api/v2/invoices?per_page=2');
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(5);
    expect(list.body.data.map((invoice: { number: string }) => invoice.number)).toEqual(['A-1', 'A-2']);
    expect(list.body.links.next).toContain('page=2');
    const mine = await t.as(token).get(`/api/v2/invoices?customer_id=${customers.fr}`);
    expect(mine.body.meta.total).toBe(1);
    expect((await t.as(token).get('/api/v2/invoices?status=not_issued')).body.meta.total).toBe(0);
    expect((await t.as(token).get('/api/v2/invoices?status=lost')).status).toBe(422);

    const invoice = mine.body.data[0];
    expect(invoice).toMatchObject({
      resource: 'invoice',
      status: 'issued',
      customer_id: customers.fr,
      locale: 'fr',
      issued_on: '2026-12-01',
      seller: { name: accountName, vat_number: 'NL123456789B01', country: 'NL' },
      buyer: { name: 'Anna de Vries' },
      lines: [
        {
          quantity: 1,
          description: 'Coffee box',
          vat: '21',
          total_excluding_vat: '10.33',
          total_vat: '2.17',
          total_including_vat: '12.50',
        },
      ],
      vat_totals: [{ vat: '21', total_excluding_vat: '10.33', total_vat: '2.17', total_including_vat: '12.50' }],
      total_including_vat: '12.50',
      credit_notes: [],
    });
    expect((await t.as(token).get(`/api/v2/invoices/${invoice.id}`)).body).toEqual(invoice);

    for (const [locale, customerId] of Object.entries(customers)) {
      const one = (await t.as(token).get(`/api/v2/invoices?customer_id=${customerId}`)).body.data[0];
      const pdf = await t.as(token).get(`/api/v2/invoices/${one.id}/pdf`).buffer(true).parse(binary);
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      const text = pdfText(pdf.body as Buffer);
      for (const word of [...(WORDS[locale] ?? []), one.number, one.payment_reference, accountName, 'NL123456789B01', 'Anna de Vries']) {
        expect(text).toContain(word);
      }
      if (locale === 'nl') {
        mkdirSync(ARTIFACTS, { recursive: true });
        const file = path.join(mkdtempSync(path.join(tmpdir(), 'invoice-')), 'invoice.pdf');
        writeFileSync(file, pdf.body as Buffer);
        const target = path.join(ARTIFACTS, `invoice-nl-${kind}`);
        execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', file, target]);
        expect(existsSync(`${target}.png`) && statSync(`${target}.png`).size > 1000).toBe(true);
      }
    }
  });

  it(
    'When the seller set a KvK number and a business abroad is reverse-charged, then the PDF and the API show the KvK number, ' +
      "the buyer's VAT number and each line's period",
    async () => {
      expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, '--coc-number', '12345678')).code).toBe(0);
      const { customerId } = await subscribe(t, token, {
        email: 'gmbh@example.de',
        rules: [
          {
            amount: 30,
            interval: 'month',
            interval_amount: 1,
            invoice_rules: [
              { quantity: 1, description: 'Beans', amount: 20, vat: '21' },
              { quantity: 1, description: 'Grinder rent', amount: 10, vat: '21' },
            ],
          },
        ],
      });
      await t.ctx.db('customers').where({ id: customerId }).update({ country: 'DE', vat_number: 'DE123456789' });
      await billAndSettle(t, accountId, '2026-12-01');

      const [invoice] = (await t.as(token).get('/api/v2/invoices')).body.data;
      const december = { start: '2026-12-01', end: '2026-12-31' };
      expect(invoice).toMatchObject({
        reverse_charge: true,
        seller: { vat_number: 'NL123456789B01', coc_number: '12345678' },
        buyer: { vat_number: 'DE123456789', coc_number: null },
        lines: [
          { description: 'Beans', vat: '0', period: december },
          { description: 'Grinder rent', vat: '0', period: december },
        ],
      });
      const pdf = await t.as(token).get(`/api/v2/invoices/${invoice.id}/pdf`).buffer(true).parse(binary);
      const text = pdfText(pdf.body as Buffer);
      expect(text).toContain('Chamber of Commerce no.: 12345678');
      expect(text).toContain('VAT number: DE123456789');
      expect(text).toContain('VAT reverse charged');
      expect(text.match(/Period: December 1, 2026 – December 31, 2026/g)).toHaveLength(2);

      // Unset, the KvK number is printed nowhere; without a VAT number the buyer is not reverse-charged.
      expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, '--coc-number', '')).code).toBe(0);
      await subscribe(t, token, { email: 'plain@example.nl' });
      await billAndSettle(t, accountId, '2026-12-01');
      const plain = (await t.as(token).get('/api/v2/invoices')).body.data[1];
      expect(plain).toMatchObject({ seller: { coc_number: null }, buyer: { vat_number: null }, reverse_charge: false });
      const plainText = pdfText((await t.as(token).get(`/api/v2/invoices/${plain.id}/pdf`).buffer(true).parse(binary)).body as Buffer);
      expect(plainText).not.toContain('Chamber of Commerce');
      expect(plainText).not.toContain('reverse charged');
    },
  );

  it('When another account asks for an invoice, then it is not found, nor its PDF', async () => {
    await subscribe(t, token);
    await billAndSettle(t, accountId, '2026-12-01');
    const [invoice] = (await t.as(token).get('/api/v2/invoices')).body.data;
    const other = await t.newAccount(`Other ${Math.random().toString(36).slice(2, 8)}`);
    expect((await t.as(other.token).get(`/api/v2/invoices/${invoice.id}`)).status).toBe(404);
    expect((await t.as(other.token).get(`/api/v2/invoices/${invoice.id}/pdf`)).status).toBe(404);
    expect((await t.as(other.token).get('/api/v2/invoices')).body.meta.total).toBe(0);
  });
});
