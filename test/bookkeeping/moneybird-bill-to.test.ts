import { randomBytes } from 'node:crypto';
import { MoneybirdBookkeeping } from '../../src/bookkeeping/moneybird/adapter';
import { moneybirdConnectionOf } from '../../src/bookkeeping/moneybird/connection';
import { BookkeepingRefusal, type BookkeepingBillTo, type BookkeepingInvoice } from '../../src/bookkeeping/types';
import { TEST_DATABASES } from '../support/databases';
import { connectToFake } from '../support/moneybird';
import { startMoneybirdFake, type MoneybirdFake } from '../support/moneybirdFake';
import { useTestApp } from '../support/testApp';

const unique = () => randomBytes(4).toString('hex');

/*
 * Moneybird is an adapter: the invoices module hands it the customer an invoice bills (found through the invoice's
 * subscription), or why that customer is gone. The adapter refuses only where it needs what is gone: a contact it
 * remembers, or finds at Moneybird by our customer id, still serves.
 */
describe.each(TEST_DATABASES)('whom Moneybird bills, on %s', (kind) => {
  let fake: MoneybirdFake;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    fake = await startMoneybirdFake();
    env.MONEYBIRD_API_URL = fake.url;
  });
  const t = useTestApp(kind, { env });
  afterAll(() => fake.close());

  async function connected() {
    const name = `Moneybird ${unique()}`;
    const { accountId } = await t.newAccount(name);
    await connectToFake(t, fake, name);
    const connection = await moneybirdConnectionOf(t.ctx, t.ctx.db, accountId);
    if (!connection) throw new Error('not connected');
    return { accountId, system: new MoneybirdBookkeeping(t.ctx.db, t.clock, connection) };
  }

  const invoiceFor = (accountId: string, billTo: BookkeepingBillTo): BookkeepingInvoice => {
    const id = `inv_${unique()}`;
    return {
      id,
      account_id: accountId,
      subscription_id: 'sub_tea',
      customer_id: null,
      payment_id: `pay_${id}`,
      currency: 'EUR',
      lines: JSON.stringify([
        {
          quantity: 1,
          description: 'Tea box',
          amount: 1250,
          vat: '9',
          ledger_account_id: null,
          total_excluding_vat: 1250,
          total_vat: 113,
          total_including_vat: 1363,
        },
      ]),
      total_including_vat: 1363,
      workflow_id: fake.workflowId,
      docstyle_id: fake.docstyleId,
      created_at: '2026-12-01 06:00:00',
      billTo,
    };
  };

  const found = (customerId: string): BookkeepingBillTo => ({
    customerId,
    customer: {
      id: customerId,
      organization_name: 'Theehuis Bos',
      first_name: 'Lotte',
      last_name: 'Bos',
      email: 'lotte@example.nl',
      address: 'Kade 1',
      postal_code: '1011 AA',
      city: 'Amsterdam',
      country: 'NL',
    },
  });
  const customerGone = (customerId: string): BookkeepingBillTo => ({
    customerId,
    customer: null,
    gone: new BookkeepingRefusal(`Customer ${customerId} of the invoice is gone`),
  });
  const atMoneybird = (reference: string) => fake.invoices.filter((invoice) => invoice.reference === reference);

  it('When the customer is handed over, then a contact is made of them once; gone later, the remembered contact still serves', async () => {
    const { accountId, system } = await connected();
    const customerId = `cus_${unique()}`;
    const first = invoiceFor(accountId, found(customerId));
    const { reference } = await system.sendInvoice(first);
    expect(fake.contacts.filter((contact) => contact.customer_id === customerId)).toEqual([
      expect.objectContaining({ company_name: 'Theehuis Bos', firstname: 'Lotte', lastname: 'Bos' }),
    ]);
    const [sales] = atMoneybird(first.id);
    expect(sales?.id).toBe(reference);

    const second = invoiceFor(accountId, customerGone(customerId));
    await system.sendInvoice(second);
    expect(atMoneybird(second.id)).toEqual([expect.objectContaining({ contact_id: sales?.contact_id })]);
    expect(fake.contacts.filter((contact) => contact.customer_id === customerId)).toHaveLength(1);
  });

  it('When the customer is gone and Moneybird has no contact of them, then the document is refused with the reason given', async () => {
    const { accountId, system } = await connected();
    const customerId = `cus_${unique()}`;
    const invoice = invoiceFor(accountId, customerGone(customerId));
    await expect(system.sendInvoice(invoice)).rejects.toThrow(new BookkeepingRefusal(`Customer ${customerId} of the invoice is gone`));
    expect(atMoneybird(invoice.id)).toEqual([]);
    expect(fake.contacts.filter((contact) => contact.customer_id === customerId)).toEqual([]);
  });

  it('When the customer is gone but Moneybird has a contact with their id, then that contact is billed and remembered', async () => {
    const { accountId, system } = await connected();
    const customerId = `cus_${unique()}`;
    // A contact with their id that the account does not remember (made by hand, say): found by our customer id.
    await system.sendInvoice(invoiceFor(accountId, found(customerId)));
    const [contact] = fake.contacts.filter((candidate) => candidate.customer_id === customerId);
    await t.ctx.db('moneybird_contacts').where({ customer_id: customerId }).delete();

    const invoice = invoiceFor(accountId, customerGone(customerId));
    await system.sendInvoice(invoice);
    expect(atMoneybird(invoice.id)).toEqual([expect.objectContaining({ contact_id: contact?.id })]);
    expect(await t.ctx.db('moneybird_contacts').where({ customer_id: customerId })).toEqual([
      expect.objectContaining({ account_id: accountId, contact_id: contact?.id }),
    ]);
  });

  it('When the subscription is gone, then the document is refused with the reason given, and nothing is made', async () => {
    const { accountId, system } = await connected();
    const invoice = invoiceFor(accountId, {
      customerId: null,
      customer: null,
      gone: new BookkeepingRefusal('Subscription sub_tea of the invoice is gone'),
    });
    const contacts = fake.contacts.length;
    await expect(system.sendInvoice(invoice)).rejects.toThrow(new BookkeepingRefusal('Subscription sub_tea of the invoice is gone'));
    expect(atMoneybird(invoice.id)).toEqual([]);
    expect(fake.contacts).toHaveLength(contacts);
  });
});
