import type { Response as AgentResponse } from 'superagent';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { openPortal } from '../support/portal';
import { useTestApp } from '../support/testApp';
import { billAndSettle, invoicesOf } from '../support/invoices';

const binary = (res: AgentResponse, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

describe.each(TEST_DATABASES)('invoices in the customer portal on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });

  it('When a customer opens the portal, then their invoices link to their PDFs, and another customer’s PDF is not found', async () => {
    const name = `Portal invoices ${Math.random().toString(36).slice(2, 8)}`;
    const { token, accountId } = await t.newAccount(name);
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', name, '--prefix', 'P-', '--vat', '21')).code).toBe(0);
    const mine = await subscribe(t, token, { email: 'mine@example.nl' });
    const theirs = await subscribe(t, token, { email: 'theirs@example.nl' });
    await billAndSettle(t, accountId, '2026-12-01');
    const invoices = await invoicesOf(t, accountId);
    const myInvoice = invoices.find((invoice) => invoice.customer_id === mine.customerId);
    const theirInvoice = invoices.find((invoice) => invoice.customer_id === theirs.customerId);

    const portal = await openPortal(t, token, mine.customerId);
    const overview = await portal.agent.get('/portal/');
    expect(overview.text).toContain(`<a href="/portal/invoices/${myInvoice.id}/pdf">${myInvoice.number}</a>`);
    expect(overview.text).not.toContain(theirInvoice.id);
    const pdf = await portal.agent.get(`/portal/invoices/${myInvoice.id}/pdf`).buffer(true).parse(binary);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await portal.agent.get(`/portal/invoices/${theirInvoice.id}/pdf`)).status).toBe(404);
  });
});
