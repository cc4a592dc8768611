import { z } from 'zod';
import type { IdPrefix } from '../ids';
import { pageQuerySchema } from './pagination';

/**
 * The query parameters that filter a list (extensions of the paged lists, docs/api.md): each is checked as strictly as
 * a body field, so a status that does not exist or an id that cannot be one answers 422 instead of
 * a silently empty (or unfiltered) page. Ids of another account pass: they filter to nothing.
 */

/** `?status=`: one of the resource's statuses. */
export function statusFilter<Statuses extends readonly [string, ...string[]]>(statuses: Statuses) {
  return z
    .enum(statuses, { message: `The selected :attribute is invalid: one of ${statuses.join(', ')}.` })
    .optional()
    .describe(`one of ${statuses.join(', ')}`);
}

/** `?customer_id=` and the like: one of our ids of this kind (`cus_…`). */
export function idFilter(prefix: IdPrefix) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,60}$`), `The :attribute field must be an id starting with ${prefix}_.`)
    .optional()
    .describe(`an id starting with ${prefix}_`);
}

/** A list's query: the page query plus its filters. */
export function listQueryWith<Shape extends z.ZodRawShape>(filters: Shape) {
  return pageQuerySchema.extend(filters);
}
