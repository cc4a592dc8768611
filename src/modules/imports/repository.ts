import type { Knex } from 'knex';
import { pageOf } from '../../db/paging';
import type { Page, PageRequest } from '../../paging';
import type { SubscriptionRow } from '../subscriptions/repository';
import type { ImportSourceName } from './sources';

export const IMPORT_STATUSES = ['running', 'finished', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const ROW_OUTCOMES = ['created', 'skipped', 'failed', 'would_create', 'would_skip', 'exists'] as const;
export type RowOutcome = (typeof ROW_OUTCOMES)[number];

export interface ImportRow {
  id: string;
  account_id: string;
  source: ImportSourceName;
  dry_run: boolean | number;
  status: ImportStatus;
  total: number;
  created: number;
  skipped: number;
  failed: number;
  /** Why the run stopped, when it failed as a whole (the source could not be read). */
  error: string | null;
  started_at: string;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ImportRowOutcome {
  account_id: string;
  import_id: string;
  source_id: string;
  line: number | null;
  outcome: RowOutcome;
  field: string | null;
  reason: string | null;
  customer_id: string | null;
  subscription_id: string | null;
  created_at: string;
}

/** What an import made for one of the source's ids, across runs: written before anything is made for it. */
export interface ImportItem {
  account_id: string;
  source: ImportSourceName;
  source_id: string;
  customer_id: string;
  mandate_id: string | null;
  created_at: string;
  updated_at: string;
}

const imports = (db: Knex) => db<ImportRow>('imports');
const rows = (db: Knex) => db<ImportRowOutcome>('import_rows');
const items = (db: Knex) => db<ImportItem>('import_items');

export const importsRepository = {
  insert: (db: Knex, row: ImportRow) => imports(db).insert(row),

  find: (db: Knex, accountId: string, id: string): Promise<ImportRow | undefined> =>
    imports(db).where({ account_id: accountId, id }).first(),

  update: (db: Knex, row: Pick<ImportRow, 'id' | 'account_id'>, changes: Partial<ImportRow>) =>
    imports(db).where({ id: row.id, account_id: row.account_id }).update(changes),

  /** One row's outcome in a run; each source id appears once per run. */
  insertOutcome: (db: Knex, outcome: ImportRowOutcome) => rows(db).insert(outcome),

  outcomesPage: (db: Knex, accountId: string, importId: string, request: PageRequest): Promise<Page<ImportRowOutcome>> =>
    pageOf<ImportRowOutcome>(rows(db).where({ account_id: accountId, import_id: importId }), request),

  findItem: (db: Knex, accountId: string, source: ImportSourceName, sourceId: string): Promise<ImportItem | undefined> =>
    items(db).where({ account_id: accountId, source, source_id: sourceId }).first(),

  insertItem: (db: Knex, item: ImportItem) => items(db).insert(item),

  updateItem: (db: Knex, item: Pick<ImportItem, 'account_id' | 'source' | 'source_id'>, changes: Partial<ImportItem>) =>
    items(db).where({ account_id: item.account_id, source: item.source, source_id: item.source_id }).update(changes),

  /** The subscription an earlier import made of this source id (unique per account). */
  subscriptionFromSource: (db: Knex, accountId: string, source: ImportSourceName, sourceId: string): Promise<SubscriptionRow | undefined> =>
    db<SubscriptionRow>('subscriptions').where({ account_id: accountId, source, source_id: sourceId }).first(),
};
