import { isUniqueViolation } from './connect';

/** What an upsert of outside records did: rows made, changed, and left as they were. */
export interface UpsertCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** A record that could not be written, and why. */
export interface RecordError {
  record: string;
  error: string;
}

/**
 * Runs an upsert once more when a concurrent one (a checkout, a webhook and a sync seeing the same
 * new record at once) inserted a row first: the unique store id let only that one in, and the
 * second attempt finds it and updates it instead.
 */
export async function againAfterInsertRace<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return upsert();
  }
}

/**
 * Whether a store record is older than the one a row was last written from: the store changed the
 * row later than the record says (a late or replayed webhook delivery), so writing it would roll the
 * row back. Without both times (a row from before they were kept, a store that does not say) it is
 * not: the record is written, as it always was. Times are stored `YYYY-MM-DD HH:MM:SS` GMT strings.
 */
export function olderThanStored(stored: string | null | undefined, record: string | null | undefined): boolean {
  return Boolean(stored && record && String(stored).slice(0, 19) > record.slice(0, 19));
}
