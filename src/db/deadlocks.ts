import type { Knex } from 'knex';

/** MySQL/MariaDB chose this statement's transaction as the victim of a deadlock: it was rolled back, whole. */
export function isDeadlock(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'ER_LOCK_DEADLOCK';
}

const ATTEMPTS = 5;

/**
 * Runs `work` (one statement or one transaction) again when InnoDB rolled it back to break a
 * deadlock, as MySQL's manual asks of applications; anything else is thrown as it came. Instances
 * racing for the same charge rows deadlock now and then; the work is always safe to repeat.
 */
export async function retryDeadlocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isDeadlock(error) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/**
 * Whether a finished transaction committed; false when it was rolled back (a deadlock's victim, made
 * again in another transaction). For what was written in a transaction that `retryDeadlocks` may repeat.
 */
export function committed(trx: Knex.Transaction): Promise<boolean> {
  return trx.executionPromise.then(
    () => true,
    () => false,
  );
}
