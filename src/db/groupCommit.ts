import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/** At most this many rows in one insert; the rest wait for the next one, right after. */
const MOST_PER_INSERT = 500;

interface Waiting<Row> {
  row: Row & { receipt: string };
  resolve(seq: number): void;
  reject(error: unknown): void;
}

/**
 * Inserts rows that arrive at the same moment with one multi-row insert: one statement and one
 * commit (one fsync) for a burst instead of one per row, and every caller still learns its own
 * row's key (`seq`) only once that commit is durable. A multi-row insert reports at most its first
 * key, and keys of one statement are not always consecutive (MySQL's interleaved auto-increment), so
 * each row carries a random receipt (unique in the table) by which its key is read back. A caller
 * whose insert failed gets the error (and answers so; its sender retries).
 */
export class GroupCommit<Row extends object> {
  private waiting: Array<Waiting<Row>> = [];
  private flushing = false;

  constructor(
    private readonly db: Knex,
    private readonly table: string,
  ) {}

  insert(row: Row): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.waiting.push({ row: { ...row, receipt: randomBytes(16).toString('hex') }, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // After the I/O of this turn of the event loop: the other requests of a burst join this insert.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, MOST_PER_INSERT);
      try {
        const receipts = batch.map(({ row }) => row.receipt);
        await this.db(this.table).insert(batch.map(({ row }) => row));
        const keys = (await this.db(this.table).whereIn('receipt', receipts).select('seq', 'receipt')) as Array<{
          seq: number | string;
          receipt: string;
        }>;
        const seqOf = new Map(keys.map((key) => [key.receipt, Number(key.seq)]));
        for (const waiting of batch) {
          const seq = seqOf.get(waiting.row.receipt);
          if (seq === undefined) waiting.reject(new Error(`The row with receipt ${waiting.row.receipt} was not found after its insert`));
          else waiting.resolve(seq);
        }
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.flushing = false;
  }
}
