import { z } from 'zod';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type Page, type PageRequest } from '../paging';

/*
 * The page query every list checks and the envelope every list answers with: the modules' schemas
 * and presenters speak it as much as the HTTP layer does, so it sits below both.
 */

const positiveIntegerText = (max?: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'The :attribute field must be an integer.')
    .transform(Number)
    .pipe(max === undefined ? z.number().int().min(1) : z.number().int().min(1).max(max));

/** `page` ≥ 1 (default 1) and `per_page` 1..100 (default 15); anything else is a 422. */
export const pageQuerySchema = z.object({
  page: positiveIntegerText().optional(),
  per_page: positiveIntegerText(MAX_PER_PAGE).optional(),
});

export type PageQuery = z.output<typeof pageQuerySchema>;

export function pageRequestFrom(query: PageQuery): PageRequest {
  return {
    page: query.page ?? 1,
    perPage: query.per_page ?? DEFAULT_PER_PAGE,
    explicitPerPage: query.per_page !== undefined,
  };
}

/** Envelope of every list (docs/api.md, Paged lists): `""` for a missing prev/next, from/to null on an empty page. */
export function pagedEnvelope<T>(page: Page<T>, request: PageRequest, listUrl: string, filters: Record<string, string> = {}) {
  const lastPage = Math.max(1, Math.ceil(page.total / request.perPage));
  // A filtered list's page links keep the filter, as they keep per_page.
  const filterQuery = Object.entries(filters)
    .map(([name, value]) => `&${name}=${encodeURIComponent(value)}`)
    .join('');
  const pageUrl = (n: number) => `${listUrl}?page=${n}${request.explicitPerPage ? `&per_page=${request.perPage}` : ''}${filterQuery}`;
  const from = page.items.length ? (request.page - 1) * request.perPage + 1 : null;
  return {
    data: page.items,
    links: {
      first: pageUrl(1),
      last: pageUrl(lastPage),
      prev: request.page > 1 ? pageUrl(Math.min(request.page - 1, lastPage)) : '',
      next: request.page < lastPage ? pageUrl(request.page + 1) : '',
    },
    meta: {
      current_page: request.page,
      last_page: lastPage,
      per_page: request.perPage,
      total: page.total,
      from,
      to: from === null ? null : from + page.items.length - 1,
      path: listUrl,
    },
  };
}

/** The zod shape of the envelope, for OpenAPI and for tests. */
export function pagedEnvelopeSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    links: z.object({ first: z.string(), last: z.string(), prev: z.string(), next: z.string() }),
    meta: z.object({
      current_page: z.number().int(),
      last_page: z.number().int(),
      per_page: z.number().int(),
      total: z.number().int(),
      from: z.number().int().nullable(),
      to: z.number().int().nullable(),
      path: z.string(),
    }),
  });
}
