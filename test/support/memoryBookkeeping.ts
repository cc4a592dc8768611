import { BookkeepingSettingsError, type BookkeepingAdapter } from '../../src/bookkeeping/adapter';
import {
  BookkeepingRefusal,
  type BookkeepingBillTo,
  type BookkeepingInvoice,
  type BookkeepingLine,
  type BookkeepingSystem,
  type CreditInvoice,
} from '../../src/bookkeeping/types';

/** A document as the test system received it. */
export interface Booked {
  reference: string;
  kind: 'invoice' | 'credit';
  accountId: string;
  key: string;
  lines: BookkeepingLine[];
  workflowId: string | null;
  docstyleId: string | null;
}

export interface MemoryBookkeeping {
  adapter: BookkeepingAdapter;
  /** Every document received, in order. */
  booked: Booked[];
  /** Whom each document received bills, by our reference, as the invoices module handed it over. */
  billed: Map<string, BookkeepingBillTo>;
}

/**
 * "Ledgerbook", a bookkeeping system that exists only in the tests: it keeps what it receives in memory. An account
 * connects it with `accounts set-bookkeeping ledgerbook --ledgerbook-key <key>`; it knows the workflow `wf_ok` and
 * the document style `ds_ok`. Registered through the registry's test hook, it shows that a system is a descriptor
 * and nothing else: no module names it, and it imports no module (an adapter, like a payment provider).
 */
export function memoryBookkeeping(): MemoryBookkeeping {
  const booked: Booked[] = [];
  const billed = new Map<string, BookkeepingBillTo>();
  const keys = new Map<string, string>();
  const system = (accountId: string, key: string): BookkeepingSystem => {
    const book = (kind: Booked['kind'], reference: string, invoice: BookkeepingInvoice, lines: BookkeepingLine[]) => {
      // Idempotent on our reference, as every system must be.
      if (!booked.some((known) => known.reference === reference)) {
        booked.push({ reference, kind, accountId, key, lines, workflowId: invoice.workflow_id, docstyleId: invoice.docstyle_id });
        billed.set(reference, invoice.billTo);
      }
      return Promise.resolve({ reference: `lb-${booked.findIndex((known) => known.reference === reference) + 1}` });
    };
    return {
      name: 'ledgerbook',
      sendInvoice: (invoice) => book('invoice', invoice.id, invoice, JSON.parse(invoice.lines) as BookkeepingLine[]),
      sendCreditInvoice: (credit: CreditInvoice) => book('credit', credit.reference, credit.invoice, credit.lines),
    };
  };
  const adapter: BookkeepingAdapter = {
    name: 'ledgerbook',
    displayName: 'Ledgerbook',
    open(_ctx, accountId) {
      const key = keys.get(accountId);
      if (!key) throw new BookkeepingRefusal('The account is no longer connected to Ledgerbook');
      return Promise.resolve(system(accountId, key));
    },
    accountSettings: {
      options: [{ flags: '--ledgerbook-key <key>', description: 'Ledgerbook: the key of the ledger' }],
      async connect(_ctx, input) {
        const key = input.values.ledgerbookKey;
        if (typeof key !== 'string' || !key) throw new BookkeepingSettingsError('Pass --ledgerbook-key <key>');
        const account = await input.account();
        // Its ledger keeps nothing in our tables: only the naming of the system on the account is stored.
        await input.saveConnection(() => Promise.resolve());
        keys.set(account.id, key);
        return `Account "${account.name}" books in Ledgerbook`;
      },
    },
    disconnect(_ctx, accountId) {
      keys.delete(accountId);
      return Promise.resolve();
    },
    checkDocumentStyle(_ctx, _accountId, ids) {
      return Promise.resolve({
        ...(ids.workflow_id === 'wf_ok' ? {} : { workflow_id: 'Ledgerbook has no such workflow.' }),
        ...(ids.docstyle_id === 'ds_ok' ? {} : { docstyle_id: 'Ledgerbook has no such document style.' }),
      });
    },
  };
  return { adapter, booked, billed };
}
