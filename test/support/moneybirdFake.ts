import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Moneybird API v2 double on a real loopback HTTP server: the resources the service uses, their
 * JSON shapes, Moneybird's error bodies (`{"error": …, "symbolic": …}`), 429 with Retry-After, and
 * faults a test arranges: an error answered once, an answer lost after the work was done, or an
 * answer held back (the caller is killed meanwhile).
 */

export interface FakeSalesInvoice {
  id: string;
  administration_id: string;
  contact_id: string;
  reference: string | null;
  state: string;
  invoice_id: string | null;
  workflow_id: string;
  document_style_id: string;
  currency: string;
  prices_are_incl_tax: boolean;
  details: Array<{ id: string; description: string; price: string; amount: string; tax_rate_id: string; ledger_account_id: string | null }>;
  payments: Array<{ id: string; payment_date: string; price: string; transaction_identifier: string | null }>;
  total_price_incl_tax: string;
}

type Fault =
  | { kind: 'error'; status: number; retryAfter?: number; body: unknown }
  | { kind: 'lose' } // do the work, then cut the connection without an answer
  | { kind: 'hold' }; // do the work, never answer

interface ArrangedFault {
  method: string;
  path: RegExp;
  fault: Fault;
}

export interface MoneybirdFake {
  url: string;
  token: string;
  administrationId: string;
  workflowId: string;
  docstyleId: string;
  ledgerAccountId: string;
  taxRates: Array<{ id: string; name: string; percentage: string; tax_rate_type: string; active: boolean }>;
  contacts: Array<{ id: string; customer_id: string; company_name: string; firstname: string; lastname: string }>;
  invoices: FakeSalesInvoice[];
  requests: Array<{ method: string; path: string }>;
  /** The next `method` call whose path matches answers with this fault (once). */
  arrange(method: string, path: RegExp, fault: Fault): void;
  /** Resolves when a held answer's work is done. */
  held(): Promise<void>;
  close(): Promise<void>;
}

let counter = 400_000_000_000_000_000n;
const nextId = () => String((counter += 1n));

const cents = (decimal: string) => Math.round(Number(decimal) * 100);
const decimal = (value: number) => (value / 100).toFixed(2);

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startMoneybirdFake(): Promise<MoneybirdFake> {
  const faults: ArrangedFault[] = [];
  let heldResolve: (() => void) | undefined;
  let heldPromise = new Promise<void>((resolve) => {
    heldResolve = resolve;
  });
  const sockets = new Set<import('node:net').Socket>();
  const fake: MoneybirdFake = {
    url: '',
    token: 'mb-token-0123456789abcdef',
    administrationId: '123456789012345678',
    workflowId: '800000000000000001',
    docstyleId: '900000000000000001',
    ledgerAccountId: '700000000000000001',
    taxRates: [
      { id: '600000000000000021', name: '21% btw', percentage: '21.0', tax_rate_type: 'sales_invoice', active: true },
      { id: '600000000000000009', name: '9% btw', percentage: '9.0', tax_rate_type: 'sales_invoice', active: true },
      { id: '600000000000000000', name: '0% btw', percentage: '0.0', tax_rate_type: 'sales_invoice', active: true },
      { id: '600000000000000099', name: '21% inkoop', percentage: '21.0', tax_rate_type: 'purchase_invoice', active: true },
    ],
    contacts: [],
    invoices: [],
    requests: [],
    arrange: (method, path, fault) => faults.push({ method, path, fault }),
    held: () => heldPromise,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const ledgerAccounts = [
    { id: fake.ledgerAccountId, name: 'Omzet', account_id: '8000', account_type: 'revenue' },
    { id: '700000000000000002', name: 'Omzet laag', account_id: '8010', account_type: 'revenue' },
  ];

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/^\/api\/v2/, '');
    fake.requests.push({ method, path: `${path}${url.search}` });
    const faultIndex = faults.findIndex((candidate) => candidate.method === method && candidate.path.test(path));
    const fault = faultIndex >= 0 ? faults.splice(faultIndex, 1)[0]?.fault : undefined;
    if (fault?.kind === 'error') {
      json(res, fault.status, fault.body, fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) });
      return;
    }
    if (req.headers.authorization !== `Bearer ${fake.token}`) {
      json(res, 401, { error: 'Token is invalid', symbolic: { token: 'invalid' } });
      return;
    }
    const body = await bodyOf(req);
    const answer = (status: number, value: unknown) => {
      if (fault?.kind === 'lose') {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'hold') {
        heldResolve?.();
        heldPromise = new Promise<void>((resolve) => {
          heldResolve = resolve;
        });
        return;
      }
      json(res, status, value);
    };
    if (method === 'GET' && path === '/administrations.json') {
      answer(200, [{ id: fake.administrationId, name: 'Koffieclub B.V.', currency: 'EUR', country: 'NL' }]);
      return;
    }
    const inAdministration = new RegExp(`^/${fake.administrationId}(/.*)$`).exec(path);
    if (!inAdministration) {
      json(res, 404, { error: 'record not found', symbolic: { administration_id: 'not_found' } });
      return;
    }
    const resource = inAdministration[1] ?? '';
    const invoiceMatch = /^\/sales_invoices\/(\d+)(\.json|\/send_invoice\.json|\/payments\.json)$/.exec(resource);
    if (method === 'GET' && resource === '/workflows.json') {
      answer(200, [
        { id: fake.workflowId, type: 'InvoiceWorkflow', name: 'Standaard', active: true },
        { id: '800000000000000002', type: 'EstimateWorkflow', name: 'Offertes', active: true },
      ]);
    } else if (method === 'GET' && resource === '/document_styles.json') {
      answer(200, [{ id: fake.docstyleId, name: 'Standaard' }]);
    } else if (method === 'GET' && resource === '/tax_rates.json') {
      const filter = url.searchParams.get('filter') ?? '';
      const type = /tax_rate_type:(\w+)/.exec(filter)?.[1];
      answer(
        200,
        fake.taxRates.filter((rate) => !type || rate.tax_rate_type === type),
      );
    } else if (method === 'GET' && resource === '/ledger_accounts.json') {
      answer(200, ledgerAccounts);
    } else if (method === 'GET' && resource.startsWith('/contacts/customer_id/')) {
      const customerId = decodeURIComponent(resource.slice('/contacts/customer_id/'.length).replace(/\.json$/, ''));
      const contact = fake.contacts.find((candidate) => candidate.customer_id === customerId);
      if (contact) answer(200, contact);
      else json(res, 404, { error: 'record not found', symbolic: { contact: 'not_found' } });
    } else if (method === 'POST' && resource === '/contacts.json') {
      const given = (body.contact ?? {}) as Record<string, string>;
      if (!given.company_name && !given.firstname && !given.lastname) {
        json(res, 422, { error: { company_name: ['Company name, first name or last name must be present'] }, symbolic: {} });
        return;
      }
      const contact = {
        id: nextId(),
        customer_id: given.customer_id ?? '',
        company_name: given.company_name ?? '',
        firstname: given.firstname ?? '',
        lastname: given.lastname ?? '',
      };
      fake.contacts.push(contact);
      answer(201, contact);
    } else if (method === 'GET' && resource === '/sales_invoices.json') {
      const filter = url.searchParams.get('filter') ?? '';
      const reference = /reference:([^,]+)/.exec(filter)?.[1];
      answer(
        200,
        fake.invoices.filter((invoice) => reference === undefined || invoice.reference === reference),
      );
    } else if (method === 'POST' && resource === '/sales_invoices.json') {
      const given = (body.sales_invoice ?? {}) as Record<string, unknown>;
      const details = (given.details_attributes ?? []) as Array<Record<string, string>>;
      const errors: Record<string, string[]> = {};
      if (!fake.contacts.some((contact) => contact.id === given.contact_id)) errors.contact_id = ['is not a valid contact'];
      if (given.workflow_id !== fake.workflowId) errors.workflow_id = ['is invalid'];
      if (given.document_style_id !== fake.docstyleId) errors.document_style_id = ['is invalid'];
      for (const detail of details) {
        if (!fake.taxRates.some((rate) => rate.id === detail.tax_rate_id)) errors['details.tax_rate_id'] = ['is invalid'];
        if (detail.ledger_account_id && !ledgerAccounts.some((account) => account.id === detail.ledger_account_id)) {
          errors['details.ledger_account_id'] = ['is invalid'];
        }
      }
      if (Object.keys(errors).length) {
        json(res, 422, { error: errors, symbolic: Object.fromEntries(Object.keys(errors).map((key) => [key, 'invalid'])) });
        return;
      }
      const inclusive = Boolean(given.prices_are_incl_tax);
      const total = details.reduce((sum, detail) => {
        // Prices including VAT: the total is their sum (Moneybird takes the VAT out of each, the total stays).
        if (inclusive) return sum + Math.round(cents(detail.price ?? '0') * Number(detail.amount ?? '1'));
        const percentage = Number(fake.taxRates.find((rate) => rate.id === detail.tax_rate_id)?.percentage ?? 0);
        const excluding = cents(detail.price ?? '0') * Number(detail.amount ?? '1');
        // Half away from zero, as for a positive invoice: a credit invoice mirrors it to the cent.
        return sum + excluding + Math.sign(excluding) * Math.round((Math.abs(excluding) * percentage) / 100);
      }, 0);
      const invoice: FakeSalesInvoice = {
        id: nextId(),
        administration_id: fake.administrationId,
        contact_id: String(given.contact_id),
        reference: (given.reference as string | undefined) ?? null,
        state: 'draft',
        invoice_id: null,
        workflow_id: String(given.workflow_id),
        document_style_id: String(given.document_style_id),
        currency: String(given.currency ?? 'EUR'),
        prices_are_incl_tax: Boolean(given.prices_are_incl_tax),
        details: details.map((detail) => ({
          id: nextId(),
          description: detail.description ?? '',
          price: detail.price ?? '0',
          amount: detail.amount ?? '1',
          tax_rate_id: detail.tax_rate_id ?? '',
          ledger_account_id: detail.ledger_account_id ?? null,
        })),
        payments: [],
        total_price_incl_tax: decimal(total),
      };
      fake.invoices.push(invoice);
      answer(201, invoice);
    } else if (invoiceMatch) {
      const invoice = fake.invoices.find((candidate) => candidate.id === invoiceMatch[1]);
      if (!invoice) {
        json(res, 404, { error: 'record not found', symbolic: { sales_invoice: 'not_found' } });
        return;
      }
      if (method === 'GET' && invoiceMatch[2] === '.json') {
        answer(200, invoice);
      } else if (method === 'PATCH' && invoiceMatch[2] === '/send_invoice.json') {
        if (invoice.state === 'draft') {
          invoice.state = 'open';
          invoice.invoice_id = `2026-${String(fake.invoices.filter((candidate) => candidate.invoice_id).length + 1).padStart(4, '0')}`;
        }
        answer(200, invoice);
      } else if (method === 'POST' && invoiceMatch[2] === '/payments.json') {
        const given = (body.payment ?? {}) as Record<string, string>;
        if (!given.payment_date || given.price === undefined) {
          json(res, 422, { error: { payment_date: ["can't be blank"] }, symbolic: { payment_date: 'blank' } });
          return;
        }
        invoice.payments.push({
          id: nextId(),
          payment_date: given.payment_date,
          price: given.price,
          transaction_identifier: given.transaction_identifier ?? null,
        });
        const paid = invoice.payments.reduce((sum, payment) => sum + cents(payment.price), 0);
        if (paid === cents(invoice.total_price_incl_tax) && invoice.state !== 'draft') invoice.state = 'paid';
        answer(201, invoice.payments[invoice.payments.length - 1]);
      } else {
        json(res, 404, { error: 'record not found', symbolic: {} });
      }
    } else {
      json(res, 404, { error: 'record not found', symbolic: {} });
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
  return fake;
}
