import type { Knex } from 'knex';

/** At most this many rows in one commit; the rest wait for the next one, right after. */
const MOST_PER_COMMIT = 500;

interface Waiting<Row> {
  row: Row;
  resolve(seq: number): void;
  reject(error: unknown): void;
}

/**
 * Inserts rows that arrive at the same moment in one transaction: one commit (one fsync) for a burst
 * instead of one per row, and every caller still learns its own row's key only once that commit is
 * durable. A caller whose commit failed gets the error (and answers so; its sender retries).
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
      this.waiting.push({ row, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // After the I/O of this turn of the event loop: the other requests of a burst join this commit.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, MOST_PER_COMMIT);
      try {
        const seqs = await this.db.transaction(async (trx) => {
          const keys: number[] = [];
          for (const { row } of batch) {
            const [seq] = (await trx(this.table).insert(row)) as number[];
            keys.push(Number(seq));
          }
          return keys;
        });
        batch.forEach((waiting, index) => waiting.resolve(seqs[index] as number));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.flushing = false;
  }
}
