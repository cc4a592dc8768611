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
