/**
 * A thin client of Moneybird's REST API v2 (https://developer.moneybird.com): JSON under
 * `<base>/<administration_id>/<resource>.json`, a bearer token, errors as `{"error": …, "symbolic": …}`,
 * 429 with Retry-After when the rate limit is reached. The token is never logged.
 */

import { BookkeepingCallError } from '../types';

/** Moneybird answered with an error, or could not be reached. `retryable`: try again later. */
export class MoneybirdError extends BookkeepingCallError {
  constructor(
    message: string,
    readonly status: number | null,
    retryable: boolean,
    /** Seconds Moneybird asked us to wait (429 Retry-After). */
    retryAfterSeconds: number | null = null,
  ) {
    super(message, retryable, retryAfterSeconds);
  }
}

export interface MoneybirdTaxRate {
  id: string;
  name: string;
  percentage: string;
  tax_rate_type: string;
  active: boolean;
}

export interface MoneybirdLedgerAccount {
  id: string;
  name: string;
  account_id: string | null;
  account_type: string;
}

export interface MoneybirdSalesInvoice {
  id: string;
  reference: string | null;
  state: string;
  invoice_id: string | null;
  total_price_incl_tax: string;
  payments?: Array<{ id: string; transaction_identifier: string | null; price: string }>;
}

export interface MoneybirdDetail {
  description: string;
  price: string;
  amount: string;
  tax_rate_id: string;
  ledger_account_id?: string;
}

function errorText(body: unknown): string {
  if (body && typeof body === 'object' && 'error' in body) {
    const { error } = body as { error: unknown };
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object') {
      return Object.entries(error as Record<string, unknown>)
        .map(([field, messages]) => `${field} ${Array.isArray(messages) ? messages.join(', ') : String(messages)}`)
        .join('; ');
    }
  }
  return 'no error message';
}

export class MoneybirdClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly administrationId: string,
    private readonly timeoutMs: number,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown, { inAdministration = true } = {}): Promise<T> {
    const base = this.baseUrl.replace(/\/+$/, '');
    const url = inAdministration ? `${base}/${encodeURIComponent(this.administrationId)}${path}` : `${base}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { Authorization: `Bearer ${this.token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'could not be reached';
      throw new MoneybirdError(`Moneybird ${reason} (${method} ${path.split('?')[0]})`, null, true);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null; // an HTML error page: the status tells enough
    }
    if (res.ok) return parsed as T;
    const where = `${method} ${path.split('?')[0]}`;
    if (res.status === 429) {
      const retryAfter = Number(res.headers.get('retry-after'));
      throw new MoneybirdError(`Moneybird rate limit reached (${where})`, 429, true, Number.isFinite(retryAfter) ? retryAfter : null);
    }
    if (res.status >= 500) throw new MoneybirdError(`Moneybird answered ${res.status} (${where})`, res.status, true);
    if (res.status === 401)
      throw new MoneybirdError('Moneybird refused the API token (401): it is invalid, expired or revoked', 401, false);
    throw new MoneybirdError(`Moneybird answered ${res.status} to ${where}: ${errorText(parsed)}`, res.status, false);
  }

  /** The administrations the token may use. */
  administrations = () =>
    this.call<Array<{ id: string; name: string }>>('GET', '/administrations.json', undefined, { inAdministration: false });

  workflows = () => this.call<Array<{ id: string; type: string; name: string; active?: boolean }>>('GET', '/workflows.json');

  documentStyles = () => this.call<Array<{ id: string; name: string }>>('GET', '/document_styles.json');

  taxRates = () => this.call<MoneybirdTaxRate[]>('GET', '/tax_rates.json?filter=tax_rate_type%3Asales_invoice');

  ledgerAccounts = () => this.call<MoneybirdLedgerAccount[]>('GET', '/ledger_accounts.json');

  /** The contact whose customer_id is ours, or null (404). */
  async contactByCustomerId(customerId: string): Promise<{ id: string } | null> {
    try {
      return await this.call<{ id: string }>('GET', `/contacts/customer_id/${encodeURIComponent(customerId)}.json`);
    } catch (error) {
      if (error instanceof MoneybirdError && error.status === 404) return null;
      throw error;
    }
  }

  createContact = (contact: Record<string, string | null>) => this.call<{ id: string }>('POST', '/contacts.json', { contact });

  /** Sales invoices (any state) with this reference: how a lost answer is resolved. */
  salesInvoicesByReference = (reference: string) =>
    this.call<MoneybirdSalesInvoice[]>('GET', `/sales_invoices.json?filter=${encodeURIComponent(`state:all,reference:${reference}`)}`);

  salesInvoice = (id: string) => this.call<MoneybirdSalesInvoice>('GET', `/sales_invoices/${encodeURIComponent(id)}.json`);

  createSalesInvoice = (salesInvoice: Record<string, unknown>) =>
    this.call<MoneybirdSalesInvoice>('POST', '/sales_invoices.json', { sales_invoice: salesInvoice });

  sendSalesInvoice = (id: string) =>
    this.call<MoneybirdSalesInvoice>('PATCH', `/sales_invoices/${encodeURIComponent(id)}/send_invoice.json`, {
      sales_invoice_sending: { delivery_method: 'Email' },
    });

  registerPayment = (id: string, payment: { payment_date: string; price: string; transaction_identifier: string }) =>
    this.call<unknown>('POST', `/sales_invoices/${encodeURIComponent(id)}/payments.json`, { payment });
}
