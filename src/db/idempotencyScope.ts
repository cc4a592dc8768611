import type { Knex } from 'knex';

/**
 * What a service sees of a request's Idempotency-Key (the middleware in src/http/idempotency.ts holds
 * the key): a vocabulary shared with the modules, so it imports nothing of the HTTP layer.
 */

/**
 * What a handler needs of the key: the resource an earlier attempt of this very request created
 * (to resume it), and a way to record the resource it creates now.
 */
export interface IdempotencyScope {
  readonly resumedResourceId: string | null;
  /**
   * Records the resource this request creates. Call it in the transaction that writes the resource,
   * so the two exist together or not at all. Throws 409 when this request no longer holds the key (a
   * retry took it over) or another attempt recorded a resource first: the transaction then rolls
   * back, and the attempt holding the key makes or resumes the one resource.
   */
  remember(db: Knex, resourceId: string): Promise<void>;
}

/**
 * Writes a new resource and the key's record of it in one transaction: after a crash either both
 * exist (a retry resumes the resource) or neither (a retry starts afresh). The transaction also
 * holds a resource of several rows together when there is no key.
 */
export async function writeRemembered(
  db: Knex,
  idempotency: IdempotencyScope,
  resourceId: string,
  write: (trx: Knex.Transaction) => Promise<unknown>,
): Promise<void> {
  await db.transaction(async (trx) => {
    await write(trx);
    await idempotency.remember(trx, resourceId);
  });
}

/** A request without an Idempotency-Key: nothing to resume, nothing to record. */
export const WITHOUT_IDEMPOTENCY_KEY: IdempotencyScope = { resumedResourceId: null, remember: async () => {} };
