import type { Knex } from 'knex';
import type { MailStatus, OutgoingMailRow } from './rows';

const table = (db: Knex) => db<OutgoingMailRow>('outgoing_mails');

/** The mail outbox: written in the caller's transaction, read by delivery and `cli mails`. */
export const mailsRepository = {
  insert: (db: Knex, row: OutgoingMailRow) => table(db).insert(row),

  /** The mail queued under this dedupe key ("the same mail"), if any. */
  findByDedupeKey: (db: Knex, dedupeKey: string) => table(db).where({ dedupe_key: dedupeKey }).first('id'),

  find: (db: Knex, id: string) => table(db).where({ id }).first(),

  /** Queued mails whose next attempt is due, longest due first. */
  due: (db: Knex, now: string, limit: number) =>
    table(db)
      .where({ status: 'queued' })
      .andWhere('next_attempt_at', '<=', now)
      .orderBy([{ column: 'next_attempt_at' }, { column: 'seq' }])
      .limit(limit),

  /** Records an attempt's outcome only while the mail is still queued: of two runners racing, one records it. */
  updateIfQueued: (db: Knex, id: string, changes: Partial<OutgoingMailRow>) => table(db).where({ id, status: 'queued' }).update(changes),

  /** The newest mails, of one account or all, in one status or any. */
  newest: (db: Knex, options: { limit: number; accountId?: string; status?: MailStatus }) => {
    const query = table(db).orderBy('seq', 'desc').limit(options.limit);
    if (options.accountId !== undefined) query.where({ account_id: options.accountId });
    if (options.status !== undefined) query.where({ status: options.status });
    return query;
  },
};
