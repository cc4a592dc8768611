import request from 'supertest';
import type { Response as AgentResponse } from 'superagent';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { billAndSettle } from '../support/invoices';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { openPortal } from '../support/portal';
import { useTestApp, type TestApp } from '../support/testApp';

const binary = (res: AgentResponse, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

interface Shop {
  accountId: string;
  token: string;
}

/** An account that invoices, with two customers each charged 12.50 once (sandbox), invoiced P-1 and P-2. */
async function invoicingShop(t: TestApp, emails: string[]): Promise<Shop & { customers: string[] }> {
  const name = `Portal refunds ${Math.random().toString(36).slice(2, 8)}`;
  const { token, accountId } = await t.newAccount(name);
  expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', name, '--prefix', 'P-', '--vat', '21')).code).toBe(0);
  const customers = [];
  for (const email of emails) customers.push((await subscribe(t, token, { email })).customerId);
  await billAndSettle(t, accountId, '2026-12-01');
  return { token, accountId, customers };
}

/** Refunds part of the customer's charge through the API, and lets the sandbox settle it (its webhook). */
async function refundSettled(t: TestApp, shop: Shop, customerId: string, amount: number): Promise<{ paymentId: string; refundId: string }> {
  const payment = await t.ctx.db('payments').where({ account_id: shop.accountId, customer_id: customerId, purpose: 'charge' }).first();
  const created = await t.as(shop.token).post(`/api/v2/payments/${payment.id}/refunds`, { amount, description: 'Broken cup' });
  expect(created.status).toBe(201);
  const account = await t.ctx.db('accounts').where({ id: shop.accountId }).first();
  await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
  await processDueWebhookCalls(t.ctx, new AbortController().signal);
  await t.ctx.background.idle();
  return { paymentId: payment.id, refundId: created.body.id };
}

/** The portal shows a payment's refunds under it, and the credit notes as it shows invoices: each to download, only the customer's own. */
describe.each(TEST_DATABASES)('refunds and credit notes in the customer portal on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it(
    'When a customer’s payment was partly refunded, then the portal lists the refund under it and the credit note with its PDF; ' +
      'another customer’s or account’s credit note is not found',
    async () => {
      const shop = await invoicingShop(t, ['mine@example.nl', 'theirs@example.nl']);
      const [mine, theirs] = shop.customers as [string, string];
      await refundSettled(t, shop, mine, 5);
      await refundSettled(t, shop, theirs, 2);
      const notes = await t.ctx.db('credit_notes').where({ account_id: shop.accountId }).orderBy('seq');
      expect(notes).toHaveLength(2);
      const [myNote, theirNote] = notes as [{ id: string; number: string }, { id: string; number: string }];
      const myInvoice = await t.ctx.db('invoices').where({ account_id: shop.accountId, customer_id: mine }).first();

      const other = await invoicingShop(t, ['elsewhere@example.nl']);
      await refundSettled(t, other, other.customers[0] as string, 1);
      const [otherNote] = await t.ctx.db('credit_notes').where({ account_id: other.accountId });

      const portal = await openPortal(t, shop.token, mine);
      const overview = await portal.agent.get('/portal/').set('Accept-Language', 'en');
      expect(overview.status).toBe(200);
      // The refund in a row of its own under its payment, what went back negative.
      const refundRow = [
        '<tr class="refund"><td data-label="Date">[^<]+</td><td data-label="Description">Refund: [^<]+</td>',
        '<td data-label="Amount" class="num">-€5\\.00</td><td data-label="Status">Refunded</td></tr>',
      ].join('');
      expect(overview.text).toMatch(new RegExp(refundRow));
      expect(overview.text).not.toContain('-€2.00');
      expect(overview.text).toContain('<h2>Credit notes</h2>');
      expect(overview.text).toContain(`<a href="/portal/credit-notes/${myNote.id}/pdf">${myNote.number}</a>`);
      expect(overview.text).toContain(`<td data-label="Credits invoice">${myInvoice.number}</td>`);
      expect(overview.text).toContain('-€5.00');
      expect(overview.text).not.toContain(theirNote.id);

      const pdf = await portal.agent.get(`/portal/credit-notes/${myNote.id}/pdf`).buffer(true).parse(binary);
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(`inline; filename="${myNote.number}.pdf"`);
      expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
      for (const id of [theirNote.id, otherNote.id, 'crn_unknown']) {
        const refused = await portal.agent.get(`/portal/credit-notes/${id}/pdf`);
        expect(refused.status).toBe(404);
        expect(refused.headers['content-type']).toMatch(/^text\/html/);
      }
    },
  );

  it('When a refund is still on its way, then it shows so, and no credit note yet', async () => {
    const shop = await invoicingShop(t, ['waiting@example.nl']);
    const customer = shop.customers[0] as string;
    const payment = await t.ctx.db('payments').where({ account_id: shop.accountId, customer_id: customer, purpose: 'charge' }).first();
    expect((await t.as(shop.token).post(`/api/v2/payments/${payment.id}/refunds`, { amount: 3 })).status).toBe(201);
    const portal = await openPortal(t, shop.token, customer);
    const overview = await portal.agent.get('/portal/');
    expect(overview.text).toMatch(/<td data-label="Amount" class="num">-€3\.00<\/td><td data-label="Status">On its way<\/td>/);
    expect(overview.text).not.toContain('Credit notes');
  });
});
