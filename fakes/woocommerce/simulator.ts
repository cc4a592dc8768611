import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';

type Json = Record<string, unknown>;

interface Fault {
  method: string;
  path: RegExp;
  status: number;
  retryAfter?: string;
  remaining: number;
}

export interface SimulatorRequest {
  method: string;
  path: string;
  query: Record<string, string>;
}

/** RFC 3986 percent-encoding, as OAuth 1.0a signs. */
const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A WooCommerce store's REST API (wc/v3) over real HTTP on localhost, as the real one answers: OAuth
 * 1.0a (HMAC-SHA256) checked on every request over plain HTTP, `per_page`/`page` with `X-WP-Total`
 * and `X-WP-TotalPages`, `modified_after` with `dates_are_gmt`, webhooks it delivers signed, and
 * faults (429 with Retry-After, 5xx) and latency on demand.
 */
export class WooSimulator {
  readonly products = new Map<number, Json>();
  /** Variations of variable products (`parent_id`): not in the product list, at `/products/{id}/variations`. */
  readonly variations = new Map<number, Json>();
  readonly orders = new Map<number, Json>();
  readonly webhooks = new Map<number, Json & { secret: string }>();
  readonly notes = new Map<number, Json[]>();
  /** Parcels per order at the Shipment Tracking extension's endpoint (only when `trackingExtension`). */
  readonly trackings = new Map<number, Json[]>();
  /** Whether the Shipment Tracking extension is installed: its REST namespace answers. */
  trackingExtension = false;
  readonly requests: SimulatorRequest[] = [];
  consumerKey = 'ck_simulator0000000000000000000000000000';
  consumerSecret = 'cs_simulator0000000000000000000000000000';
  /** WordPress with plain permalinks: /wp-json/ is not routed. */
  prettyPermalinks = true;
  /** A WordPress without WooCommerce: wc/v3 routes answer rest_no_route. */
  wooCommerceActive = true;
  latencyMs = 0;
  private faults: Fault[] = [];
  private lostAnswers: Fault[] = [];
  private nextId = 1000;
  private server: Server | undefined;
  url = '';

  async start(): Promise<string> {
    const app = express();
    app.use(express.json());
    app.use((req, res, next) => this.gate(req, res, next));
    const api = express.Router();
    api.get('/', (_req, res) => void res.json({ namespace: 'wc/v3', routes: { '/wc/v3/products': {}, '/wc/v3/orders': {} } }));
    api.get('/products', (req, res) => this.list(req, res, this.products));
    api.get('/products/:id/variations', (req, res) => {
      const parent = this.products.get(Number(req.params.id));
      if (!parent) return void this.notFound(res);
      const own = [...this.variations.values()].filter((variation) => Number(variation.parent_id) === Number(parent.id));
      this.list(req, res, new Map(own.map((variation) => [Number(variation.id), variation])));
    });
    api.get('/orders', (req, res) => this.list(req, res, this.orders));
    api.get('/orders/:id', (req, res) => this.one(res, this.orders, Number(req.params.id)));
    api.put('/orders/:id', (req, res) => {
      const order = this.orders.get(Number(req.params.id));
      if (!order) return void this.notFound(res);
      const body = req.body as Json;
      if (body.status) order.status = body.status;
      if (typeof body.transaction_id === 'string') order.transaction_id = body.transaction_id;
      if (body.set_paid === true) order.date_paid_gmt = new Date().toISOString().slice(0, 19);
      if (Array.isArray(body.meta_data)) order.meta_data = [...((order.meta_data as Json[]) ?? []), ...(body.meta_data as Json[])];
      order.date_modified_gmt = new Date().toISOString().slice(0, 19);
      res.json(order);
    });
    api.post('/orders/:id/notes', (req, res) => {
      const id = Number(req.params.id);
      if (!this.orders.has(id)) return void this.notFound(res);
      const note = { id: this.nextId++, note: (req.body as Json).note };
      this.notes.set(id, [...(this.notes.get(id) ?? []), note]);
      res.status(201).json(note);
    });
    api.post('/orders', (req, res) => {
      const id = this.nextId++;
      const { set_paid: setPaid, line_items: lineItems, ...fields } = req.body as Json;
      const lines = Array.isArray(lineItems) ? (lineItems as Json[]) : [];
      // The store prices the lines itself, from its products, as WooCommerce does.
      // A variation may be named by variation_id or as the product_id; the line names both, as WooCommerce's does.
      const priced = lines.map((line, index) => {
        const variation = this.variations.get(Number(line.variation_id ?? 0)) ?? this.variations.get(Number(line.product_id));
        const product = variation ?? this.products.get(Number(line.product_id));
        const total = (Number(product?.price ?? 0) * Number(line.quantity ?? 1)).toFixed(2);
        return {
          id: index + 1,
          product_id: variation ? Number(variation.parent_id) : Number(line.product_id),
          variation_id: variation ? Number(variation.id) : 0,
          quantity: Number(line.quantity ?? 1),
          total,
        };
      });
      const total = priced.reduce((sum, line) => sum + Number(line.total), 0).toFixed(2);
      const order: Json = {
        id,
        number: String(id),
        parent_id: 0,
        status: 'pending',
        currency: 'EUR',
        total,
        meta_data: [],
        ...fields,
        line_items: priced,
      };
      if (setPaid === true) order.date_paid_gmt = new Date().toISOString().slice(0, 19);
      order.date_modified_gmt = new Date().toISOString().slice(0, 19);
      this.orders.set(id, order);
      res.status(201).json(order);
    });
    api.get('/webhooks', (_req, res) => void res.json([...this.webhooks.values()].map(({ secret: _secret, ...hook }) => hook)));
    api.post('/webhooks', (req, res) => {
      const body = req.body as Json;
      const hook = {
        id: this.nextId++,
        topic: String(body.topic),
        delivery_url: String(body.delivery_url),
        name: String(body.name ?? ''),
        status: 'active',
        secret: String(body.secret ?? ''),
      };
      this.webhooks.set(hook.id, hook);
      const { secret: _secret, ...shown } = hook;
      res.status(201).json(shown);
    });
    api.delete('/webhooks/:id', (req, res) => {
      const hook = this.webhooks.get(Number(req.params.id));
      if (!hook) return void this.notFound(res);
      this.webhooks.delete(Number(hook.id));
      const { secret: _secret, ...shown } = hook;
      res.json(shown);
    });
    app.use('/wp-json/wc/v3', api);
    app.get('/wp-json/wc-shipment-tracking/v3/orders/:id/shipment-trackings', (req, res) => {
      if (!this.trackingExtension)
        return void res
          .status(404)
          .json({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
      if (!this.orders.has(Number(req.params.id))) return void this.notFound(res);
      res.json(this.trackings.get(Number(req.params.id)) ?? []);
    });
    await new Promise<void>((resolve) => {
      this.server = app.listen(0, '127.0.0.1', () => resolve());
    });
    this.url = `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next `times` requests matching fail with `status` (and a Retry-After when given). */
  fail(method: string, path: RegExp, status: number, times = 1, retryAfter?: string): void {
    this.faults.push({ method, path, status, retryAfter, remaining: times });
  }

  /** The next `times` requests matching are carried out, but the connection drops before the answer. */
  loseAnswers(method: string, path: RegExp, times = 1): void {
    this.lostAnswers.push({ method, path, status: 0, remaining: times });
  }

  addProducts(count: number, make: (index: number) => Json = () => ({})): number[] {
    return Array.from({ length: count }, (_, index) => {
      const id = this.nextId++;
      this.products.set(id, {
        id,
        name: `Product ${index + 1}`,
        type: 'simple',
        status: 'publish',
        sku: `SKU-${id}`,
        price: '9.95',
        regular_price: '9.95',
        virtual: false,
        meta_data: [],
        date_modified_gmt: this.stamp(index),
        ...make(index),
      });
      return id;
    });
  }

  /**
   * A WooCommerce Subscriptions product, its meta as the extension writes it: every `interval`
   * `period`s at `price`; `length` in periods (0: until cancelled; absent: no such meta).
   */
  addSubscriptionProduct(options: { name: string; price: string; period: string; interval?: string; length?: string }): number {
    const { name, price, period, interval = '1', length } = options;
    const meta = [
      { key: '_subscription_price', value: price },
      { key: '_subscription_period', value: period },
      { key: '_subscription_period_interval', value: interval },
      ...(length === undefined ? [] : [{ key: '_subscription_length', value: length }]),
    ];
    return this.addProducts(1, () => ({ name, type: 'subscription', price, regular_price: price, meta_data: meta }))[0] as number;
  }

  /**
   * A variable product and its variations, as WooCommerce answers them: the product's `price` is its
   * cheapest variation's, its `variations` their ids; each variation's `name` is its attribute values
   * ("Blue, S") and its `attributes` name one option each.
   */
  addVariableProduct(options: {
    name: string;
    type?: string;
    variations: Array<{ options: Record<string, string>; price: string; meta_data?: Json[] }>;
  }): { productId: number; variationIds: number[] } {
    const productId = this.nextId++;
    const modified = new Date().toISOString().slice(0, 19);
    const variationIds = options.variations.map((variation) => {
      const id = this.nextId++;
      this.variations.set(id, {
        id,
        type: 'variation',
        parent_id: productId,
        name: Object.values(variation.options).join(', '),
        status: 'publish',
        sku: '',
        price: variation.price,
        regular_price: variation.price,
        virtual: false,
        attributes: Object.entries(variation.options).map(([name, option]) => ({ id: 0, name, option })),
        meta_data: variation.meta_data ?? [],
        date_modified_gmt: modified,
      });
      return id;
    });
    const cheapest = Math.min(...options.variations.map((variation) => Number(variation.price)));
    this.products.set(productId, {
      id: productId,
      name: options.name,
      type: options.type ?? 'variable',
      status: 'publish',
      sku: '',
      price: cheapest.toFixed(2),
      regular_price: '',
      virtual: false,
      variations: variationIds,
      parent_id: 0,
      meta_data: [],
      date_modified_gmt: modified,
    });
    return { productId, variationIds };
  }

  /**
   * A variation saved (`fields` changed), as WooCommerce saves it: its product is saved with it, so
   * both have a new date_modified_gmt. `deleted`: deleted for good (variations are not trashed), gone from its product.
   */
  saveVariation(id: number, fields: Json, options: { deleted?: boolean; at?: string } = {}): void {
    const variation = this.variations.get(id);
    if (!variation) throw new Error(`no variation ${id}`);
    const parent = this.products.get(Number(variation.parent_id));
    const at = options.at ?? new Date().toISOString().slice(0, 19);
    if (options.deleted) this.variations.delete(id);
    else Object.assign(variation, fields, { date_modified_gmt: at });
    if (parent) {
      parent.variations = [...this.variations.values()].filter((one) => one.parent_id === parent.id).map((one) => one.id);
      parent.date_modified_gmt = at;
    }
  }

  /** A variation as the product webhook sends it (`/products/{variation id}`): the product's name and its values. */
  variationAsProduct(id: number): Json {
    const variation = this.variations.get(id);
    const parent = variation && this.products.get(Number(variation.parent_id));
    if (!variation || !parent) throw new Error(`no variation ${id}`);
    return { ...variation, name: `${String(parent.name)} - ${String(variation.name)}` };
  }

  addOrders(count: number, make: (index: number) => Json = () => ({})): number[] {
    return Array.from({ length: count }, (_, index) => {
      const id = this.nextId++;
      this.orders.set(id, {
        id,
        number: String(id),
        parent_id: 0,
        status: 'processing',
        currency: 'EUR',
        total: '19.90',
        billing: {
          first_name: 'Anna',
          last_name: 'de Vries',
          email: `buyer${index}@example.nl`,
          company: '',
          phone: '',
          address_1: 'Dorpsstraat 1',
          city: 'Utrecht',
          postcode: '3511 AA',
          country: 'NL',
        },
        line_items: [],
        meta_data: [],
        date_modified_gmt: this.stamp(index),
        ...make(index),
      });
      return id;
    });
  }

  /** A webhook delivery of `topic` for `resource`, signed as WooCommerce signs: base64 HMAC-SHA256 of the raw body. */
  delivery(
    topic: string,
    resource: Json,
    options: { deliveryId?: string; secret?: string } = {},
  ): { url: string; headers: Record<string, string>; body: string } {
    const hook = [...this.webhooks.values()].find((candidate) => candidate.topic === topic);
    if (!hook) throw new Error(`no webhook registered for ${topic}`);
    const body = JSON.stringify(resource);
    const [kind, event] = topic.split('.');
    return {
      url: String(hook.delivery_url),
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-WC-Webhook-Topic': topic,
        'X-WC-Webhook-Resource': kind ?? '',
        'X-WC-Webhook-Event': event ?? '',
        'X-WC-Webhook-ID': String(hook.id),
        'X-WC-Webhook-Delivery-ID': options.deliveryId ?? String(this.nextId++),
        'X-WC-Webhook-Source': `${this.url}/`,
        'X-WC-Webhook-Signature': createHmac('sha256', options.secret ?? hook.secret)
          .update(body)
          .digest('base64'),
      },
    };
  }

  /** Delivers it over HTTP to the address the webhook was registered with. */
  async deliver(
    topic: string,
    resource: Json,
    options: { deliveryId?: string; secret?: string; via?: { from: string; to: string } } = {},
  ): Promise<globalThis.Response> {
    const { url, headers, body } = this.delivery(topic, resource, options);
    // `via`: the service's PUBLIC_URL stands for a server listening elsewhere on this machine.
    const target = options.via && url.startsWith(options.via.from) ? options.via.to + url.slice(options.via.from.length) : url;
    return fetch(target, { method: 'POST', headers, body });
  }

  private stamp(index: number): string {
    return new Date(Date.UTC(2026, 10, 1, 0, 0, index)).toISOString().slice(0, 19);
  }

  private notFound(res: Response): void {
    res.status(404).json({ code: 'woocommerce_rest_invalid_id', message: 'Invalid ID.', data: { status: 404 } });
  }

  private one(res: Response, store: Map<number, Json>, id: number): void {
    const found = store.get(id);
    if (!found) return this.notFound(res);
    res.json(found);
  }

  private list(_req: Request, res: Response, store: Map<number, Json>): void {
    const query = res.locals.query as Record<string, string>;
    const perPage = Math.min(100, Number(query.per_page ?? 10));
    const page = Number(query.page ?? 1);
    let items = [...store.values()];
    const after = query.modified_after ?? null;
    if (after) items = items.filter((item) => String(item.date_modified_gmt) > after);
    if (query.parent) items = items.filter((item) => String(item.parent_id) === query.parent);
    if (query.include) {
      const ids = new Set(query.include.split(',').map(Number));
      items = items.filter((item) => ids.has(Number(item.id)));
    }
    if (query.orderby === 'modified') items.sort((a, b) => String(a.date_modified_gmt).localeCompare(String(b.date_modified_gmt)));
    res.set('X-WP-Total', String(items.length));
    res.set('X-WP-TotalPages', String(Math.max(1, Math.ceil(items.length / perPage))));
    res.json(items.slice((page - 1) * perPage, page * perPage));
  }

  /** Permalinks, WooCommerce, faults, latency and OAuth, in the order a real store meets them. */
  private gate(req: Request, res: Response, next: () => void): void {
    // PHP keeps the last of repeated query parameters (the client library sends the URL's own twice).
    const query = Object.fromEntries(
      Object.entries(req.query).map(([key, value]) => [key, String(Array.isArray(value) ? value[value.length - 1] : value)]),
    );
    this.requests.push({ method: req.method, path: req.path, query });
    res.locals.query = query;
    const go = () => {
      if (!req.path.startsWith('/wp-json/')) return next();
      if (!this.prettyPermalinks) return void res.status(404).type('html').send('<!doctype html><title>Page not found</title>');
      if (!this.wooCommerceActive)
        return void res
          .status(404)
          .json({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
      const fault = this.faults.find(
        (candidate) => candidate.remaining > 0 && candidate.method === req.method && candidate.path.test(req.path),
      );
      if (fault) {
        fault.remaining -= 1;
        if (fault.retryAfter) res.set('Retry-After', fault.retryAfter);
        return void res
          .status(fault.status)
          .json({ code: 'simulated', message: `simulated ${fault.status}`, data: { status: fault.status } });
      }
      if (!this.authorized(req, query)) {
        return void res.status(401).json({
          code: 'woocommerce_rest_authentication_error',
          message: 'Invalid signature - provided signature does not match.',
          data: { status: 401 },
        });
      }
      const lost = this.lostAnswers.find(
        (candidate) => candidate.remaining > 0 && candidate.method === req.method && candidate.path.test(req.path),
      );
      if (lost) {
        lost.remaining -= 1;
        res.json = () => {
          req.socket.destroy();
          return res;
        };
      }
      next();
    };
    if (this.latencyMs) setTimeout(go, this.latencyMs);
    else go();
  }

  /** OAuth 1.0a over plain HTTP, as WooCommerce checks it: consumer key known, signature over method, URL and every parameter. */
  private authorized(req: Request, query: Record<string, string>): boolean {
    const { oauth_signature: signature, ...params } = query;
    if (!signature || params.oauth_consumer_key !== this.consumerKey) return false;
    const method = params.oauth_signature_method === 'HMAC-SHA1' ? 'sha1' : 'sha256';
    const pairs = Object.entries(params)
      .map(([key, value]) => [rfc3986(key), rfc3986(value)] as const)
      .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a < b ? -1 : 1));
    const base = [
      req.method.toUpperCase(),
      rfc3986(`${this.url}${req.baseUrl}${req.path}`),
      rfc3986(pairs.map(([key, value]) => `${key}=${value}`).join('&')),
    ].join('&');
    const expected = createHmac(method, `${rfc3986(this.consumerSecret)}&`)
      .update(base)
      .digest();
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
