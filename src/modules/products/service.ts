import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { isUniqueViolation } from '../../db/connect';
import { NotFoundError, ValidationError } from '../../errors';
import { WITHOUT_IDEMPOTENCY_KEY, writeRemembered, type IdempotencyScope } from '../../db/idempotencyScope';
import type { Page, PageRequest } from '../../paging';
import { newId } from '../../ids';
import { toDbDateTime } from '../../time';
import { refuseUnchargeable } from '../../providers/amountLimits';
import { productsRepository, type ProductRow } from './repository';
import type { CreateProductInput } from './schemas';

/**
 * Creates a product. With an Idempotency-Key, the product and the key's record of it are written in
 * one transaction, so a retry after a crash answers that product instead of making a second one.
 */
export async function createProduct(
  ctx: AppContext,
  account: Account,
  input: CreateProductInput,
  idempotency: IdempotencyScope = WITHOUT_IDEMPOTENCY_KEY,
): Promise<ProductRow> {
  const earlier = idempotency.resumedResourceId && (await productsRepository.find(ctx.db, account.id, idempotency.resumedResourceId));
  if (earlier) return earlier;
  // A price no method of the account takes could never be paid: refused now. A subscription's is charged on a mandate.
  await refuseUnchargeable(ctx, account, {
    sequenceType: input.type === 'subscription' ? 'recurring' : 'oneoff',
    currency: 'EUR',
    amounts: [{ amount: input.amount, field: 'amount' }],
    message: 'Could not create product. Some fields contain invalid data',
  });
  const now = toDbDateTime(ctx.clock.now());
  const row: ProductRow = {
    id: newId('prd'),
    account_id: account.id,
    type: input.type,
    name: input.name,
    amount: input.amount,
    currency: 'EUR',
    vat_basis_points: input.vat,
    interval: input.interval ?? null,
    interval_value: input.interval_value ?? null,
    times: input.times ?? null,
    shop_product_id: input.shop_platform_product_id ?? null,
    deleted_at: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await writeRemembered(ctx.db, idempotency, row.id, (trx) => productsRepository.insert(trx, row));
  } catch (error) {
    // One product per store product: the unique (account, shop product id) says it exists already.
    if (!isUniqueViolation(error) || row.shop_product_id === null) throw error;
    throw new ValidationError('Could not create product. Some fields contain invalid data', {
      shop_platform_product_id: ['The shop platform product id has already been taken.'],
    });
  }
  return row;
}

export async function getProduct(ctx: AppContext, account: Account, id: string): Promise<ProductRow> {
  const row = await productsRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Product');
  return row;
}

export function listProducts(ctx: AppContext, account: Account, request: PageRequest): Promise<Page<ProductRow>> {
  return productsRepository.page(ctx.db, account.id, request);
}
