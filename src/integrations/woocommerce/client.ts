import WooCommerceRestApi, { type WooCommerceRestApiVersion } from '@woocommerce/woocommerce-rest-api';
import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import { isIP } from 'node:net';
import { checkedLookup, isPublicAddress } from '../../net/publicAddress';
import { RequestBudget } from './budget';
import { ShopApiError } from '../errors';
import { wallClockMsForServerDates } from '../../time/elapsed';

export interface WooCredentials {
  /** The store's address, e.g. https://shop.example (WordPress root, not /wp-json). */
  url: string;
  consumerKey: string;
  consumerSecret: string;
}

export interface WooClientOptions {
  timeoutMs?: number;
  /** Attempts after the first for retryable failures (429, 5xx, timeouts). */
  retries?: number;
  /** First backoff; doubled per attempt unless the store says Retry-After. */
  backoffMs?: number;
  budget?: RequestBudget;
  /**
   * Whether the store may be on a private or loopback address (OUTBOUND_ALLOW_PRIVATE). Off: every
   * connection resolves the host once and refuses it when any address is not public (SSRF, DNS rebinding).
   */
  allowPrivate?: boolean;
  /** The REST namespace: `wc/v3`, or an extension's own (`wc-shipment-tracking/v3`). */
  version?: string;
  sleep?: (ms: number) => Promise<void>;
}

/** The answer of one request: the validated body and the headers that matter (pagination). */
export interface WooAnswer<T> {
  body: T;
  totalPages: number | null;
  total: number | null;
}

/** A record of a list that the store answered in a shape we cannot use: it fails alone, named. */
export interface RejectedRecord {
  id: unknown;
  error: string;
}

interface AxiosLikeError {
  response?: { status: number; headers: Record<string, string | undefined>; data: unknown };
  code?: string;
  message: string;
}

const PAGE_SIZE = 100;
/** A list body before its records are validated one by one. */
const arrayOfUnknown = z.array(z.unknown());
/**
 * What one sync may ask of a store: 4 requests at once (a page of 100 orders costs a small shop's
 * PHP a good fraction of a second), started at most 20 per second.
 */
export const STORE_BUDGET = { concurrency: 4, perSecond: 20 } as const;
const DEFAULT_BUDGET = () => new RequestBudget(STORE_BUDGET.concurrency, STORE_BUDGET.perSecond);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function retryAfterMs(header: string | undefined): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - wallClockMsForServerDates());
}

/** Maps a failed call to what the merchant can act on. */
function shopErrorOf(error: unknown): ShopApiError {
  if (error instanceof ShopApiError) return error;
  const failure = error as AxiosLikeError;
  const response = failure.response;
  if (!response) return new ShopApiError('unreachable', `the store could not be reached (${failure.code ?? failure.message})`, null);
  const { status } = response;
  const data = response.data as { code?: unknown; message?: unknown } | string | null;
  const message = typeof data === 'object' && data !== null && typeof data.message === 'string' ? data.message : `HTTP ${status}`;
  const code = typeof data === 'object' && data !== null && typeof data.code === 'string' ? data.code : '';
  if (status === 401 || status === 403)
    return new ShopApiError('unauthorized', `the store refused the consumer key or secret (${message})`, status);
  if (status === 429)
    return new ShopApiError('rate_limited', 'the store asks to slow down (429)', status, retryAfterMs(response.headers['retry-after']));
  if (status >= 500)
    return new ShopApiError('server_error', `the store failed (${message})`, status, retryAfterMs(response.headers['retry-after']));
  if (status === 404 && code === 'rest_no_route')
    return new ShopApiError('not_woocommerce', 'this WordPress has no WooCommerce REST API (wc/v3)', status);
  if (status === 404)
    return new ShopApiError(
      'no_permalinks',
      'no REST API answered at /wp-json/: is this a WordPress store with pretty permalinks enabled?',
      status,
    );
  return new ShopApiError('refused', `the store refused the request: ${message}`, status);
}

function headerNumber(headers: Record<string, string | undefined>, name: string): number | null {
  const value = headers[name];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

/**
 * Our typed layer over `@woocommerce/woocommerce-rest-api` (untyped, little maintained): every
 * answer validated with zod, retries with backoff on 429/5xx/timeouts honouring Retry-After, and
 * every request inside the store's budget.
 */
export class WooClient {
  private readonly api: WooCommerceRestApi;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  readonly budget: RequestBudget;
  /** Set when the store's address is a literal private IP and private addresses are not allowed. */
  private readonly refusal: ShopApiError | null;

  constructor(credentials: WooCredentials, options: WooClientOptions = {}) {
    // A literal IP is connected to without a lookup: it is checked here instead.
    const host = new URL(credentials.url).hostname.replace(/^\[|\]$/g, '');
    this.refusal =
      !options.allowPrivate && isIP(host) && !isPublicAddress(host)
        ? new ShopApiError('unreachable', `the store's address ${host} is not a public address`, null)
        : null;
    this.api = new WooCommerceRestApi({
      url: credentials.url,
      consumerKey: credentials.consumerKey,
      consumerSecret: credentials.consumerSecret,
      // The library's type names only WooCommerce's own namespaces; it joins any namespace into the URL.
      version: (options.version ?? 'wc/v3') as WooCommerceRestApiVersion,
      timeout: options.timeoutMs ?? 20_000,
      // Plain HTTP (a store on a private network, the test simulator) is signed with OAuth 1.0a by
      // the library; HTTPS uses Basic auth. Neither follows redirects to another host.
      axiosConfig: {
        maxRedirects: 0,
        validateStatus: (status: number) => status >= 200 && status < 300,
        ...(options.allowPrivate
          ? {}
          : { httpAgent: new http.Agent({ lookup: checkedLookup(false) }), httpsAgent: new https.Agent({ lookup: checkedLookup(false) }) }),
      },
    });
    this.retries = options.retries ?? 4;
    this.backoffMs = options.backoffMs ?? 500;
    this.sleep = options.sleep ?? defaultSleep;
    this.budget = options.budget ?? DEFAULT_BUDGET();
  }

  private async call<T>(send: () => Promise<unknown>, schema: z.ZodType<T>, what: string): Promise<WooAnswer<T>> {
    if (this.refusal) throw this.refusal;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const response = (await this.budget.run(send)) as { data: unknown; headers: Record<string, string | undefined> };
        const parsed = schema.safeParse(response.data);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new ShopApiError(
            'unexpected_answer',
            `${what}: the store answered something unexpected (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'})`,
            200,
          );
        }
        return {
          body: parsed.data,
          totalPages: headerNumber(response.headers, 'x-wp-totalpages'),
          total: headerNumber(response.headers, 'x-wp-total'),
        };
      } catch (error) {
        const failure = shopErrorOf(error);
        if (!failure.retryable || attempt >= this.retries) throw failure;
        await this.sleep(failure.retryAfterMs ?? this.backoffMs * 2 ** attempt);
      }
    }
  }

  get<T>(endpoint: string, schema: z.ZodType<T>, params: Record<string, string | number | boolean> = {}): Promise<WooAnswer<T>> {
    return this.call(() => this.api.get(endpoint, params), schema, `GET ${endpoint}`);
  }

  post<T>(endpoint: string, data: unknown, schema: z.ZodType<T>): Promise<WooAnswer<T>> {
    return this.call(() => this.api.post(endpoint, data), schema, `POST ${endpoint}`);
  }

  put<T>(endpoint: string, data: unknown, schema: z.ZodType<T>): Promise<WooAnswer<T>> {
    return this.call(() => this.api.put(endpoint, data), schema, `PUT ${endpoint}`);
  }

  delete<T>(endpoint: string, schema: z.ZodType<T>, params: Record<string, string | number | boolean> = {}): Promise<WooAnswer<T>> {
    return this.call(() => this.api.delete(endpoint, params), schema, `DELETE ${endpoint}`);
  }

  /**
   * Every page of a list (`per_page=100`): the first page tells `X-WP-TotalPages`, the others are
   * fetched in parallel within the budget. Each record is validated alone: one the store answers in
   * a shape we cannot use is reported with its id and the rest go on. `onPage` sees each page as it
   * arrives (progress, upserts), in any order.
   */
  async listAll<T>(
    endpoint: string,
    itemSchema: z.ZodType<T>,
    params: Record<string, string | number | boolean>,
    onPage: (page: { number: number; totalPages: number; items: T[]; rejected: RejectedRecord[] }) => Promise<void>,
  ): Promise<{ totalPages: number }> {
    const pageOf = async (number: number) => {
      const answer = await this.get(endpoint, arrayOfUnknown, { ...params, per_page: PAGE_SIZE, page: number });
      const items: T[] = [];
      const rejected: RejectedRecord[] = [];
      for (const record of answer.body) {
        const parsed = itemSchema.safeParse(record);
        if (parsed.success) items.push(parsed.data);
        else {
          const id = typeof record === 'object' && record !== null && 'id' in record ? (record as { id: unknown }).id : null;
          const issue = parsed.error.issues[0];
          rejected.push({ id, error: `${issue?.path.join('.') || 'record'}: ${issue?.message ?? 'invalid'}` });
        }
      }
      return { items, rejected, totalPages: answer.totalPages ?? 1 };
    };
    const first = await pageOf(1);
    const totalPages = Math.max(1, first.totalPages);
    await onPage({ number: 1, totalPages, items: first.items, rejected: first.rejected });
    const rest = Array.from({ length: totalPages - 1 }, (_, index) => index + 2);
    // The budget bounds how many of these are in flight at once.
    await Promise.all(
      rest.map(async (number) => {
        const page = await pageOf(number);
        await onPage({ number, totalPages, items: page.items, rejected: page.rejected });
      }),
    );
    return { totalPages };
  }
}
