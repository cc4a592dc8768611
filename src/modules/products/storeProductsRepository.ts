import type { Knex } from 'knex';
import { againAfterInsertRace, olderThanStored, type UpsertCounts } from '../../db/upserts';
import { newId } from '../../ids';
import type { StoreProduct } from '../../integrations/records';
import type { ProductRow } from './repository';

function fieldsOf(product: StoreProduct, now: string, existing: ProductRow | undefined): Partial<ProductRow> {
  return {
    type: product.type,
    name: product.name,
    amount: product.amount,
    interval: product.interval,
    interval_value: product.intervalValue,
    times: product.times,
    // A product deleted in the store keeps the day it was first seen deleted.
    deleted_at: product.deleted ? (existing?.deleted_at ?? now) : null,
    // A record that does not say when it changed keeps the time known from an earlier one.
    shop_modified_at: product.modifiedAt ?? existing?.shop_modified_at ?? null,
    shop_parent_product_id: product.parentShopProductId ?? null,
    // Stored as the database gives it back (0/1), so a repeated sync compares equal.
    shipped: product.shipped === undefined || product.shipped === null ? (existing?.shipped ?? null) : Number(product.shipped),
    trial_days: product.trialDays || null,
    signup_fee: product.signupFee || null,
  };
}

/**
 * A variable product is no product here (its variations are): none is made of it, and a row an
 * earlier version made of it (at its lowest price) is marked deleted, as a product deleted in the
 * store is. Its variations are marked deleted with it, and so is a variation of it stored here that
 * the store no longer has.
 */
async function writeVariableProduct(
  trx: Knex.Transaction,
  accountId: string,
  product: StoreProduct & { variationIds: number[] },
  found: ProductRow | undefined,
  now: string,
): Promise<boolean> {
  let changed = 0;
  if (found && found.deleted_at === null) {
    changed += await trx('products').where({ id: found.id, account_id: accountId }).update({ deleted_at: now, updated_at: now });
  }
  const gone = trx('products').where({ account_id: accountId, shop_parent_product_id: product.shopProductId }).whereNull('deleted_at');
  if (!product.deleted && product.variationIds.length) gone.whereNotIn('shop_product_id', product.variationIds);
  changed += await gone.update({ deleted_at: now, updated_at: now });
  return changed > 0;
}

const same = (existing: ProductRow, fields: Partial<ProductRow>) =>
  (Object.keys(fields) as Array<keyof ProductRow>).every((key) => {
    const a = existing[key];
    const b = fields[key];
    return a === b || (a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b));
  });

/**
 * Writes a page of store products as Products of the account, by their unique store id: new ones
 * are created, changed ones updated, the rest left as they are — so a repeated sync changes nothing.
 * A record older than the one the Product was last written from (a late webhook delivery) is left out:
 * it would roll the Product back.
 */
export function upsertStoreProducts(db: Knex, accountId: string, products: StoreProduct[], now: string): Promise<UpsertCounts> {
  return againAfterInsertRace(() => writeStoreProducts(db, accountId, products, now));
}

async function writeStoreProducts(db: Knex, accountId: string, products: StoreProduct[], now: string): Promise<UpsertCounts> {
  const counts: UpsertCounts = { created: 0, updated: 0, unchanged: 0 };
  if (!products.length) return counts;
  await db.transaction(async (trx) => {
    const existing = new Map(
      (
        await trx<ProductRow>('products')
          .where('account_id', accountId)
          .whereIn(
            'shop_product_id',
            products.map((product) => product.shopProductId),
          )
      ).map((row) => [Number(row.shop_product_id), row]),
    );
    for (const product of products) {
      const found = existing.get(product.shopProductId);
      if (product.variationIds) {
        const changed = await writeVariableProduct(trx, accountId, { ...product, variationIds: product.variationIds }, found, now);
        counts[changed ? 'updated' : 'unchanged'] += 1;
        continue;
      }
      if (found && olderThanStored(found.shop_modified_at, product.modifiedAt)) {
        counts.unchanged += 1;
        continue;
      }
      const fields = fieldsOf(product, now, found);
      if (!found) {
        const row: ProductRow = {
          id: newId('prd'),
          account_id: accountId,
          currency: 'EUR',
          // The product endpoint does not say the rate (tax classes live elsewhere): unknown, 0.
          vat_basis_points: 0,
          shop_product_id: product.shopProductId,
          created_at: now,
          updated_at: now,
          ...(fields as Pick<
            ProductRow,
            | 'type'
            | 'name'
            | 'amount'
            | 'interval'
            | 'interval_value'
            | 'times'
            | 'deleted_at'
            | 'shop_modified_at'
            | 'shop_parent_product_id'
            | 'shipped'
          >),
        };
        await trx('products').insert(row);
        counts.created += 1;
      } else if (same(found, fields)) {
        counts.unchanged += 1;
      } else {
        await trx('products')
          .where({ id: found.id, account_id: accountId })
          .update({ ...fields, updated_at: now });
        counts.updated += 1;
      }
    }
  });
  return counts;
}
