import type { Knex } from 'knex';
import { z } from 'zod';
import type { Config } from '../config';
import type { AppContext } from '../context';
import type { Account } from '../modules/accounts/account';
import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../validation/pagination';
import { type Page, type PageRequest } from '../paging';
import { defineRoute } from './route';

/** Turns a page (or one) of rows into API items; batched so nesting costs a fixed number of queries. */
type Presenter<Row, Item extends z.ZodType> = (
  db: Knex,
  config: Config,
  accountId: string,
  rows: Row[],
) => Promise<z.input<Item>[]> | z.input<Item>[];

interface ResourceNames<Item extends z.ZodType> {
  /** The collection's path, e.g. `/api/v2/links`. */
  path: string;
  tag: string;
  /** Plural noun in messages: "Could not list payment links. …". */
  plural: string;
  item: Item;
}

/** A list's filters as parsed from its query (`?email=`): the names and values its page links carry on. */
export type ListFilters = Record<string, string | undefined>;

/**
 * `GET {path}`: the paged list of docs/api.md, Paged lists. A list that can be filtered (an extension) gives its
 * `query` (the page query extended with its filters) and `filtersOf`, which picks the filters out
 * of it; `list` gets them, and the page links keep them, as they keep `per_page`.
 */
export function listRoute<
  Row,
  Item extends z.ZodType,
  Query extends typeof pageQuerySchema = typeof pageQuerySchema,
  Filters extends ListFilters = ListFilters,
>(
  spec: ResourceNames<Item> & {
    operationId: string;
    summary: string;
    query?: Query;
    /** A list the spec does not have (`GET /api/v2/payments`): OpenAPI marks it as an extension. */
    extension?: boolean;
    filtersOf?: (query: z.output<Query>) => Filters;
    list(ctx: AppContext, account: Account, request: PageRequest, filters: Filters): Promise<Page<Row>>;
    present: Presenter<Row, Item>;
  },
) {
  return defineRoute({
    methods: ['get'],
    path: spec.path,
    operationId: spec.operationId,
    summary: spec.summary,
    tag: spec.tag,
    status: 200,
    ...(spec.extension ? { extension: true } : {}),
    query: spec.query ?? pageQuerySchema,
    response: pagedEnvelopeSchema(spec.item),
    invalidMessage: `Could not list ${spec.plural}. Some parameters are invalid`,
    async handle({ ctx, account, query }) {
      const request = pageRequestFrom(query);
      const filters = (spec.filtersOf?.(query as z.output<Query>) ?? {}) as Filters;
      const page = await spec.list(ctx, account, request, filters);
      const items = await spec.present(ctx.db, ctx.config, account.id, page.items);
      const given = Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined));
      return pagedEnvelope({ items, total: page.total }, request, ctx.config.publicUrl + spec.path, given);
    },
  });
}

/** `:id` in a path; any string, so an unknown id is a 404 rather than a 422. */
export const idParams = z.object({ id: z.string() });

/** `GET {path}/:id` (an extension of the spec): one resource, 404 for unknown and other accounts' ids. */
export function readOneRoute<Row, Item extends z.ZodType>(
  spec: ResourceNames<Item> & {
    operationId: string;
    summary: string;
    get(ctx: AppContext, account: Account, id: string): Promise<Row>;
    present: Presenter<Row, Item>;
  },
) {
  return defineRoute({
    methods: ['get'],
    path: `${spec.path}/:id`,
    operationId: spec.operationId,
    summary: spec.summary,
    tag: spec.tag,
    status: 200,
    extension: true,
    params: idParams,
    response: spec.item,
    invalidMessage: `Could not get ${spec.plural}. Some parameters are invalid`,
    async handle({ ctx, account, params }) {
      const [item] = await spec.present(ctx.db, ctx.config, account.id, [await spec.get(ctx, account, params.id)]);
      if (item === undefined) throw new Error(`Presenting ${spec.path}/${params.id} gave nothing`);
      return item;
    },
  });
}
