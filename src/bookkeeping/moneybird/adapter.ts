import type { Knex } from 'knex';
import { formatCents } from '../../money';
import { BookkeepingRefusal, type BookkeepingInvoice, type BookkeepingLine, type BookkeepingSystem, type CreditInvoice } from '../types';
import type { Clock } from '../../time';
import { toDbDateTime } from '../../time';
import type { MoneybirdDetail, MoneybirdLedgerAccount, MoneybirdSalesInvoice, MoneybirdTaxRate } from './client';
import type { MoneybirdConnection } from './connection';
import { moneybirdRepository } from './repository';

/** What a document becomes at Moneybird: a sales invoice (a credit invoice has negative prices). */
interface Document {
  reference: string;
  invoice: BookkeepingInvoice;
  lines: BookkeepingLine[];
  sign: 1 | -1;
  /** Each line's price is its VAT-inclusive total (a partial credit): the document's total is their sum, to the cent. */
  pricesInclTax: boolean;
  /** The payment registered on it: our payment id, or the credit's reference. */
  transactionIdentifier: string;
  paymentDate: string;
}

const vatLabel = (vat: string | null) => `${vat ?? '0'}%`;

/**
 * Moneybird: a contact per customer (found by our customer id, made once and remembered), a sales
 * invoice per invoice record with our invoice id as its reference, sent or left as a draft as the
 * account chose, its payment registered. Every step is looked up before it is repeated, so a retry
 * after a lost answer finishes the invoice it made instead of making another.
 */
export class MoneybirdBookkeeping implements BookkeepingSystem {
  readonly name = 'moneybird';
  private taxRates: MoneybirdTaxRate[] | undefined;
  private ledgerAccounts: MoneybirdLedgerAccount[] | undefined;

  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
    private readonly connection: MoneybirdConnection,
  ) {}

  sendInvoice(invoice: BookkeepingInvoice, options: { mayExist?: boolean } = {}): Promise<{ reference: string }> {
    const lines = JSON.parse(invoice.lines) as BookkeepingLine[];
    return this.send(
      {
        reference: invoice.id,
        invoice,
        lines,
        sign: 1,
        pricesInclTax: false,
        transactionIdentifier: invoice.payment_id,
        paymentDate: invoice.created_at,
      },
      options.mayExist === true,
    );
  }

  sendCreditInvoice(credit: CreditInvoice, options: { mayExist?: boolean } = {}): Promise<{ reference: string }> {
    return this.send(
      {
        reference: credit.reference,
        invoice: credit.invoice,
        lines: credit.lines,
        sign: -1,
        pricesInclTax: credit.pricesInclTax === true,
        transactionIdentifier: credit.reference,
        paymentDate: credit.date,
      },
      options.mayExist === true,
    );
  }

  private async send(document: Document, mayExist: boolean): Promise<{ reference: string }> {
    const { client } = this.connection;
    let salesInvoice: MoneybirdSalesInvoice | undefined;
    if (mayExist) [salesInvoice] = await client.salesInvoicesByReference(document.reference);
    if (!salesInvoice) {
      const details = await this.detailsOf(document);
      const contactId = await this.contactOf(document.invoice);
      salesInvoice = await client.createSalesInvoice({
        contact_id: contactId,
        reference: document.reference,
        workflow_id: document.invoice.workflow_id,
        document_style_id: document.invoice.docstyle_id,
        currency: document.invoice.currency,
        prices_are_incl_tax: document.pricesInclTax,
        invoice_date: document.paymentDate.slice(0, 10),
        details_attributes: details,
      });
    }
    if (this.connection.sendInvoices && salesInvoice.state === 'draft') salesInvoice = await client.sendSalesInvoice(salesInvoice.id);
    const payments = salesInvoice.payments ?? (await client.salesInvoice(salesInvoice.id)).payments ?? [];
    if (!payments.some((payment) => payment.transaction_identifier === document.transactionIdentifier)) {
      const total = document.lines.reduce((sum, line) => sum + line.total_including_vat, 0);
      await client.registerPayment(salesInvoice.id, {
        payment_date: document.paymentDate.slice(0, 10),
        price: formatCents(document.sign * total),
        transaction_identifier: document.transactionIdentifier,
      });
    }
    return { reference: String(salesInvoice.id) };
  }

  /** The detail lines: our lines with Moneybird's tax rate and ledger account ids; refused when one has no match. */
  private async detailsOf(document: Document): Promise<MoneybirdDetail[]> {
    const { client } = this.connection;
    this.taxRates ??= await client.taxRates();
    const rates = this.taxRates.filter((rate) => rate.active !== false && rate.tax_rate_type === 'sales_invoice');
    if (document.lines.some((line) => line.ledger_account_id)) this.ledgerAccounts ??= await client.ledgerAccounts();
    return document.lines.map((line, index) => {
      const label = `Invoice line ${index + 1} ("${line.description}")`;
      const rate = rates.find((candidate) => Number(candidate.percentage) === Number(line.vat ?? '0'));
      if (!rate) {
        throw new BookkeepingRefusal(
          `${label}: the Moneybird administration has no active sales tax rate of ${vatLabel(line.vat)} ` +
            `(it has ${[...new Set(rates.map((candidate) => `${Number(candidate.percentage)}%`))].join(', ') || 'none'})`,
        );
      }
      // Inclusive: the line's total as one item, so Moneybird's total is ours exactly (no VAT added to a rounded net).
      const detail: MoneybirdDetail = document.pricesInclTax
        ? {
            description: line.description,
            price: formatCents(document.sign * line.total_including_vat),
            amount: '1',
            tax_rate_id: String(rate.id),
          }
        : {
            description: line.description,
            price: formatCents(document.sign * line.amount),
            amount: String(line.quantity),
            tax_rate_id: String(rate.id),
          };
      if (line.ledger_account_id) {
        const ledger = (this.ledgerAccounts ?? []).find(
          (candidate) => String(candidate.id) === line.ledger_account_id || candidate.account_id === line.ledger_account_id,
        );
        if (!ledger) {
          throw new BookkeepingRefusal(
            `${label}: the Moneybird administration has no ledger account ${line.ledger_account_id} (by id or account code)`,
          );
        }
        detail.ledger_account_id = String(ledger.id);
      }
      return detail;
    });
  }

  /**
   * The customer's Moneybird contact: remembered, else found by our customer id, else made. A customer the invoices
   * module could not find refuses the document only here, where it is needed: a remembered contact still serves.
   */
  private async contactOf(invoice: BookkeepingInvoice): Promise<string> {
    const { client, administrationId } = this.connection;
    const { billTo } = invoice;
    if (billTo.customerId === null) throw billTo.gone;
    const key = { account_id: invoice.account_id, customer_id: billTo.customerId, administration_id: administrationId };
    const known = await moneybirdRepository.contactIdOf(this.db, key);
    if (known) return known;
    let contact = await client.contactByCustomerId(billTo.customerId);
    if (!contact) {
      if (billTo.customer === null) throw billTo.gone;
      const { customer } = billTo;
      contact = await client.createContact({
        customer_id: customer.id,
        company_name: customer.organization_name,
        firstname: customer.first_name,
        lastname: customer.last_name,
        send_invoices_to_email: customer.email,
        address1: customer.address,
        zipcode: customer.postal_code,
        city: customer.city,
        country: customer.country,
      });
    }
    await moneybirdRepository.rememberContact(this.db, key, String(contact.id), toDbDateTime(this.clock.now()));
    return String(contact.id);
  }
}
