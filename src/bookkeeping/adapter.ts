import type { Knex } from 'knex';
import type { AppContext } from '../context';
import type { BookkeepingSystem } from './types';

/**
 * Everything specific to one bookkeeping system, in one descriptor per folder (`bookkeeping/<name>/index.ts`),
 * listed once in the registry (`bookkeeping/index.ts`), as payment providers are. An account names its system
 * (`accounts.bookkeeping_system`); the invoices module, the subscriptions module and the CLI ask the descriptor of
 * that name, and none of them names a system. Systems are adapters, below the modules: what one needs of a module
 * is handed to it (the invoices module gives the customer an invoice bills; the CLI names the system on the account).
 */
export interface BookkeepingAdapter {
  /** Stored on accounts that use it (`accounts set-bookkeeping <name>`). */
  readonly name: string;
  /** How people are told about it. */
  readonly displayName: string;
  /**
   * The account's system, ready to receive documents. Throws BookkeepingRefusal when the account cannot be served
   * (no longer connected, its credentials unreadable): its documents fail with that reason.
   */
  open(ctx: AppContext, accountId: string): Promise<BookkeepingSystem>;
  /** How an account is connected to it with `accounts set-bookkeeping <name>`; null: by its name alone. */
  readonly accountSettings: BookkeepingSettingsForm | null;
  /** Forgets what the account stored for it (`set-bookkeeping --none`, or another system). */
  disconnect(ctx: AppContext, accountId: string): Promise<void>;
  /**
   * A new subscription's `workflow_id` and `docstyle_id` checked at the system: the message for each one it does
   * not know (none: both are known). Absent: the system is not asked.
   */
  checkDocumentStyle?(ctx: AppContext, accountId: string, ids: DocumentStyleIds): Promise<DocumentStyleRefusals>;
}

export interface DocumentStyleIds {
  workflow_id: string;
  docstyle_id: string;
}

export type DocumentStyleRefusals = Partial<Record<keyof DocumentStyleIds, string>>;

/** One option a system adds to `accounts set-bookkeeping`, as commander reads it (`--token <token>`). */
export interface BookkeepingCliOption {
  readonly flags: string;
  readonly description: string;
}

/** The options given to `accounts set-bookkeeping`, by their attribute names (`administration`, `sendInvoices`). */
export type BookkeepingOptionValues = Readonly<Record<string, string | boolean | undefined>>;

export interface BookkeepingConnectInput {
  values: BookkeepingOptionValues;
  /** The account named by --account; read when the options are found in order (an unknown one fails then). */
  account(): Promise<{ id: string; name: string }>;
  /** Reads a line of standard input (a secret given as `-`, kept out of argv and shell history). */
  readStdin(prompt: string): Promise<string>;
  /**
   * Runs `store` (the system writing its connection to its own tables) in one transaction with naming the system on
   * the account: both or neither. The caller names it, since an adapter does not write the accounts of the modules.
   */
  saveConnection(store: (trx: Knex.Transaction) => Promise<void>): Promise<void>;
}

export interface BookkeepingSettingsForm {
  readonly options: readonly BookkeepingCliOption[];
  /**
   * Checks the options (and the credentials at the system), then stores them through `input.saveConnection`, which
   * names the system the account's in the same transaction; answers the line that confirms it. Throws
   * BookkeepingSettingsError saying what to fix.
   */
  connect(ctx: AppContext, input: BookkeepingConnectInput): Promise<string>;
}

/** Options given to `accounts set-bookkeeping` that cannot be used; the message says what to fix. */
export class BookkeepingSettingsError extends Error {}
