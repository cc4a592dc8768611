import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';

type Json = Record<string, unknown>;

/** Something the store does by itself when a request arrives (before it is handled) or once it was answered. */
interface Happening {
  method: string;
  path: RegExp;
  when: 'before' | 'after';
  action: () => void;
}

interface Fault {
  method: string;
  path: RegExp;
  status: number;
  retryAfter?: string;
  remaining: number;
}

/** A webhook as the store keeps it: its secret, its failures in a row, and whether its ping was answered. */
type Hook = Json & {
  id: number;
  topic: string;
  delivery_url: string;
  status: string;
  secret: string;
  failure_count: number;
  pending_delivery: boolean;
};

/** How the store sends a webhook request: answers the HTTP status, or 0 when nothing answered. */
export type WebhookTransport = (url: string, headers: Record<string, string>, body: string) => Promise<number>;

/** WooCommerce disables a webhook when a delivery fails with more than this many failures in a row before it. */
const MAX_DELIVERY_FAILURES = 5;

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
  /** WooCommerce Subscriptions' subscriptions (`/subscriptions`), in the shape its REST API answers (7.8). */
  readonly subscriptions = new Map<number, Json>();
  /**
   * Gateways WooCommerce Subscriptions takes as a subscription's new payment method over REST: an
   * available gateway that supports `subscription_payment_method_change_admin`. Any other is refused
   * (400), and the refusal has already cleared the subscription's gateway and made it manual, as the
   * real extension does.
   */
  readonly switchableGateways = new Set<string>(['rps']);
  /** Meta keys a subscription's PUT does not keep (a plugin of the store that filters them out). */
  readonly unsavedMeta = new Set<string>();
  /** Gateways that bill by themselves (`gateway_scheduled_payments`): the extension makes them no renewal order. */
  readonly scheduledPaymentGateways = new Set<string>(['rps']);
  readonly webhooks = new Map<number, Hook>();
  /** Deliveries waiting for the store's queue (Action Scheduler): the topic and the resource's id only. */
  readonly queued: Array<{ topic: string; id: number }> = [];
  /**
   * How webhook requests (pings, deliveries) leave the store. By default over HTTP, with `route`
   * standing for a service whose PUBLIC_URL is served elsewhere on this machine.
   */
  transport: WebhookTransport = (url, headers, body) => {
    const target = this.route && url.startsWith(this.route.from) ? this.route.to + url.slice(this.route.from.length) : url;
    return fetch(target, { method: 'POST', headers, body }).then(
      (res) => res.status,
      () => 0,
    );
  };
  route: { from: string; to: string } | undefined;
  /** The store's clock, whole seconds of which make its delivery ids. */
  now: () => Date = () => new Date();
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
  /** The store's tax rate in percent for its buyers (21 for the Netherlands), added to the orders it makes through the API. */
  taxRate = 0;
  private faults: Fault[] = [];
  private lostAnswers: Fault[] = [];
  private happenings: Happening[] = [];
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
    api.get('/subscriptions', (req, res) => this.list(req, res, this.subscriptions));
    api.get('/subscriptions/:id', (req, res) => this.one(res, this.subscriptions, Number(req.params.id)));
    api.get('/subscriptions/:id/orders', (req, res) => {
      const id = Number(req.params.id);
      const subscription = this.subscriptions.get(id);
      if (!subscription) return void this.notFound(res);
      res.json(this.subscriptionOrders(id, Number(subscription.parent_id ?? 0)));
    });
    api.put('/subscriptions/:id', (req, res) => {
      const subscription = this.subscriptions.get(Number(req.params.id));
      if (!subscription) return void this.notFound(res);
      this.updateSubscription(subscription, req.body as Json, res);
    });
    api.get('/orders/:id', (req, res) => this.one(res, this.orders, Number(req.params.id)));
    api.put('/orders/:id', (req, res) => {
      const order = this.orders.get(Number(req.params.id));
      if (!order) return void this.notFound(res);
      const body = req.body as Json;
      if (body.status) order.status = body.status;
      if (typeof body.transaction_id === 'string') order.transaction_id = body.transaction_id;
      if (body.set_paid === true) this.payComplete(order);
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
      const { set_paid: setPaid, line_items: lineItems, shipping_lines: shippingItems, ...fields } = req.body as Json;
      const lines = Array.isArray(lineItems) ? (lineItems as Json[]) : [];
      const shipping = Array.isArray(shippingItems) ? (shippingItems as Json[]) : [];
      // As WooCommerce does: a line's subtotal and total are given without tax, or taken from the
      // product's price; the store then adds its tax to lines and shipping (calculate_totals). A
      // variation may be named by variation_id or as the product_id; the line names both, as WooCommerce's does.
      const priced = lines.map((line, index) => {
        const variation = this.variations.get(Number(line.variation_id ?? 0)) ?? this.variations.get(Number(line.product_id));
        const product = variation ?? this.products.get(Number(line.product_id));
        const parentId = Number(product?.parent_id ?? 0);
        const subtotal = line.subtotal === undefined ? Number(product?.price ?? 0) * Number(line.quantity ?? 1) : Number(line.subtotal);
        const total = line.total === undefined ? subtotal : Number(line.total);
        return {
          id: index + 1,
          product_id: parentId > 0 ? parentId : Number(line.product_id),
          variation_id: parentId > 0 ? Number(product?.id ?? line.product_id) : 0,
          quantity: Number(line.quantity ?? 1),
          subtotal: subtotal.toFixed(2),
          subtotal_tax: this.tax(subtotal).toFixed(2),
          total: total.toFixed(2),
          total_tax: this.tax(total).toFixed(2),
        };
      });
      const shippingLines = shipping.map((line, index) => ({
        id: lines.length + index + 1,
        method_id: String(line.method_id ?? ''),
        method_title: String(line.method_title ?? ''),
        total: Number(line.total ?? 0).toFixed(2),
        total_tax: this.tax(Number(line.total ?? 0)).toFixed(2),
      }));
      const total = [...priced, ...shippingLines].reduce((sum, line) => sum + Number(line.total) + Number(line.total_tax), 0).toFixed(2);
      const now = new Date().toISOString().slice(0, 19);
      const order: Json = {
        id,
        number: String(id),
        parent_id: 0,
        status: 'pending',
        currency: 'EUR',
        payment_method: '',
        payment_method_title: '',
        meta_data: [],
        ...fields,
        total,
        line_items: priced,
        shipping_lines: shippingLines,
        date_created_gmt: now,
      };
      if (setPaid === true) this.payComplete(order);
      order.date_modified_gmt = now;
      this.orders.set(id, order);
      res.status(201).json(order);
    });
    api.get('/webhooks', (_req, res) => {
      const query = res.locals.query as Record<string, string>;
      let hooks = [...this.webhooks.values()];
      if (query.include) {
        const ids = new Set(query.include.split(',').map(Number));
        hooks = hooks.filter((hook) => ids.has(hook.id));
      }
      if (query.status && query.status !== 'all') hooks = hooks.filter((hook) => hook.status === query.status);
      res.json(hooks.map((hook) => this.shown(hook)));
    });
    // As WooCommerce 9.9 does: the webhook is made, then pinged (form POST webhook_id=N, unsigned) before
    // the answer; the ping's outcome only decides whether it still waits for a first delivery.
    api.post('/webhooks', async (req, res) => {
      const body = req.body as Json;
      const hook: Hook = {
        id: this.nextId++,
        topic: String(body.topic),
        delivery_url: String(body.delivery_url),
        name: String(body.name ?? ''),
        status: body.status === 'paused' || body.status === 'disabled' ? body.status : 'active',
        secret: String(body.secret ?? ''),
        failure_count: 0,
        pending_delivery: true,
      };
      this.webhooks.set(hook.id, hook);
      const pinged = await this.transport(
        hook.delivery_url,
        { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'WooCommerce/9.9.5 Hookshot (WordPress/6.8.8)' },
        `webhook_id=${hook.id}`,
      );
      if (pinged === 200) hook.pending_delivery = false;
      res.status(201).json(this.shown(hook));
    });
    api.get('/webhooks/:id', (req, res) => {
      const hook = this.webhooks.get(Number(req.params.id));
      if (!hook) return void this.notFound(res);
      res.json(this.shown(hook));
    });
    api.put('/webhooks/:id', (req, res) => {
      const hook = this.webhooks.get(Number(req.params.id));
      if (!hook)
        return void res.status(400).json({ code: 'woocommerce_rest_webhook_invalid_id', message: 'ID is invalid.', data: { status: 400 } });
      const body = req.body as Json;
      if (body.status === 'active' || body.status === 'paused' || body.status === 'disabled') hook.status = body.status;
      if (typeof body.delivery_url === 'string') hook.delivery_url = body.delivery_url;
      res.json(this.shown(hook));
    });
    api.delete('/webhooks/:id', (req, res) => {
      const hook = this.webhooks.get(Number(req.params.id));
      if (!hook) return void this.notFound(res);
      this.webhooks.delete(Number(hook.id));
      res.json(this.shown(hook));
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

  /**
   * The store does `action` by itself once, when the next request matching arrives: `before` it is
   * handled (it then answers what the action made), or `after` it was answered (the caller acts on
   * what it read before). So a test plays what happens in the store between two of the service's requests.
   */
  meanwhile(when: 'before' | 'after', method: string, path: RegExp, action: () => void): void {
    this.happenings.push({ method, path, when, action });
  }

  /**
   * Mollie's plugin renews the subscription at its next payment (WooCommerce Subscriptions' scheduled
   * payment with Mollie's gateway): a renewal order charged to the mandate. `paid`: the payment came
   * in (the order processing, the next payment a period on unless `movesNext` is false: the extension
   * moves it in a step of its own); otherwise the order
   * waits for it (`on-hold`, as SEPA Direct Debit's does for days) and the subscription keeps
   * `subscriptionStatus` (Mollie's plugin keeps it active; the extension alone puts it on hold).
   * Answers the renewal order's id.
   */
  renewByMollie(id: number, options: { paid?: boolean; subscriptionStatus?: string; movesNext?: boolean } = {}): number {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new Error(`no subscription ${id}`);
    const paid = options.paid ?? true;
    const due = String(subscription.next_payment_date_gmt);
    const [renewal] = this.addOrders(1, () => ({
      status: paid ? 'processing' : 'on-hold',
      total: subscription.total,
      payment_method: subscription.payment_method,
      line_items: subscription.line_items,
      meta_data: [{ key: '_subscription_renewal', value: String(id) }],
      date_created_gmt: due,
    }));
    // As the extension records it: the last order's date, whether it is paid or not.
    subscription.last_payment_date_gmt = due;
    if (paid) {
      if (options.movesNext ?? true) {
        subscription.next_payment_date_gmt = this.periodAfter(
          due,
          String(subscription.billing_period),
          Number(subscription.billing_interval),
        );
      }
      subscription.status = 'active';
    } else subscription.status = options.subscriptionStatus ?? 'active';
    subscription.date_modified_gmt = new Date().toISOString().slice(0, 19);
    return renewal as number;
  }

  /** A renewal order `renewByMollie` left waiting is paid: the order processing, the subscription active and a period on. */
  payRenewal(id: number, renewal: number): void {
    const subscription = this.subscriptions.get(id);
    const order = this.orders.get(renewal);
    if (!subscription || !order) throw new Error(`no subscription ${id} or order ${renewal}`);
    order.status = 'processing';
    const due = String(subscription.next_payment_date_gmt);
    subscription.last_payment_date_gmt = due;
    subscription.next_payment_date_gmt = this.periodAfter(due, String(subscription.billing_period), Number(subscription.billing_interval));
    subscription.status = 'active';
  }

  /** The customer cancels it in My Account: `cancelled`, or `pending-cancel` (ends at the paid period's end). */
  cancelInMyAccount(id: number, status: 'cancelled' | 'pending-cancel' = 'cancelled'): void {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new Error(`no subscription ${id}`);
    subscription.status = status;
    if (status === 'cancelled') {
      subscription.cancelled_date_gmt = new Date().toISOString().slice(0, 19);
      subscription.next_payment_date_gmt = '';
    }
    subscription.date_modified_gmt = new Date().toISOString().slice(0, 19);
  }

  /** `2026-12-25T10:00:00` a period on (`month`, 1 → `2027-01-25T10:00:00`). */
  private periodAfter(gmt: string, period: string, interval: number): string {
    const date = new Date(`${gmt}Z`);
    if (period === 'day') date.setUTCDate(date.getUTCDate() + interval);
    else if (period === 'week') date.setUTCDate(date.getUTCDate() + 7 * interval);
    else if (period === 'month') date.setUTCMonth(date.getUTCMonth() + interval);
    else date.setUTCFullYear(date.getUTCFullYear() + interval);
    return date.toISOString().slice(0, 19);
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

  /**
   * A subscription of WooCommerce Subscriptions as its REST API answers it (the real store's shape:
   * test/fixtures/woocommerce/subscription-created.json): monthly, one line of 15.00, paid through
   * Mollie's SEPA Direct Debit gateway, unless `fields` says otherwise. `meta` adds meta_data entries.
   */
  addSubscription(fields: Json = {}, meta: Record<string, string> = {}): number {
    const id = this.nextId++;
    const now = new Date().toISOString().slice(0, 19);
    this.subscriptions.set(id, {
      id,
      parent_id: 0,
      status: 'active',
      currency: 'EUR',
      total: '15.00',
      total_tax: '0.00',
      customer_id: 2,
      billing: {
        first_name: 'Anna',
        last_name: 'Jansen',
        company: '',
        address_1: 'Dorpsstraat 1',
        address_2: '',
        city: 'Utrecht',
        state: '',
        postcode: '3511AA',
        country: 'NL',
        email: 'anna@example.test',
        phone: '',
      },
      payment_method: 'mollie_wc_gateway_directdebit',
      payment_method_title: 'SEPA Direct Debit',
      created_via: 'rest-api',
      number: String(id),
      line_items: [
        {
          id: 1,
          name: 'Coffee of the month',
          product_id: 14,
          variation_id: 0,
          quantity: 1,
          subtotal: '15.00',
          subtotal_tax: '0.00',
          total: '15.00',
          total_tax: '0.00',
          meta_data: [],
        },
      ],
      shipping_lines: [],
      date_created_gmt: now,
      date_modified_gmt: now,
      // As the extension answers: the interval as a string, a date the subscription lacks as "".
      billing_period: 'month',
      billing_interval: '1',
      trial_period: '',
      suspension_count: 0,
      requires_manual_renewal: false,
      start_date_gmt: '2026-09-25T10:00:00',
      trial_end_date_gmt: '',
      next_payment_date_gmt: '2026-12-25T10:00:00',
      last_payment_date_gmt: '',
      cancelled_date_gmt: '',
      end_date_gmt: '',
      removed_line_items: [],
      ...fields,
      meta_data: [
        ...(Array.isArray(fields.meta_data) ? (fields.meta_data as Json[]) : []),
        ...Object.entries(meta).map(([key, value]) => ({ id: this.nextId++, key, value })),
      ],
    });
    return id;
  }

  /**
   * The extension's scheduled payment of a subscription (`woocommerce_scheduled_subscription_payment`):
   * unless its gateway bills by itself and it is automatic, the subscription is put on hold and a
   * renewal order made. Answers the renewal order's id, or null when none was made.
   */
  runScheduledPayment(id: number): number | null {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new Error(`no subscription ${id}`);
    const gateway = String(subscription.payment_method ?? '');
    if (subscription.requires_manual_renewal !== true && this.scheduledPaymentGateways.has(gateway)) return null;
    subscription.status = 'on-hold';
    const [renewal] = this.addOrders(1, () => ({
      status: 'pending',
      total: subscription.total,
      payment_method: gateway,
      line_items: subscription.line_items,
      meta_data: [{ key: '_subscription_renewal', value: String(id) }],
    }));
    return renewal ?? null;
  }

  /**
   * `GET /subscriptions/{id}/orders` as the extension answers it: the parent order, then its renewals
   * (orders whose `_subscription_renewal` names it), each with `order_type`.
   */
  private subscriptionOrders(id: number, parentId: number): Json[] {
    const parent = this.orders.get(parentId);
    const renewals = [...this.orders.values()].filter((order) =>
      ((order.meta_data as Json[] | undefined) ?? []).some(
        (meta) => meta.key === '_subscription_renewal' && String(meta.value) === String(id),
      ),
    );
    return [
      ...(parent ? [{ ...parent, order_type: 'parent_order' }] : []),
      ...renewals.map((order) => ({ ...order, order_type: 'renewal_order' })),
    ];
  }

  /** `PUT /subscriptions/{id}` as WooCommerce Subscriptions 7.8 applies it. */
  private updateSubscription(subscription: Json, body: Json, res: Response): void {
    if (typeof body.requires_manual_renewal === 'boolean') subscription.requires_manual_renewal = body.requires_manual_renewal;
    if (typeof body.status === 'string') subscription.status = body.status;
    if (typeof body.next_payment_date === 'string') subscription.next_payment_date_gmt = body.next_payment_date.replace(' ', 'T');
    if (Array.isArray(body.meta_data)) {
      const meta = [...((subscription.meta_data as Json[]) ?? [])];
      for (const entry of body.meta_data as Json[]) {
        if (this.unsavedMeta.has(String(entry.key))) continue;
        const found = meta.find((existing) => existing.key === entry.key);
        if (found) found.value = entry.value;
        else meta.push({ id: this.nextId++, key: entry.key, value: entry.value });
      }
      subscription.meta_data = meta;
    }
    subscription.date_modified_gmt = new Date().toISOString().slice(0, 19);
    const gateway = typeof body.payment_method === 'string' ? body.payment_method : null;
    if (gateway !== null && gateway !== subscription.payment_method) {
      if (!this.switchableGateways.has(gateway)) {
        // The extension clears the gateway (a manual renewal from now on) and saves before it answers the refusal.
        subscription.payment_method = '';
        subscription.payment_method_title = '';
        subscription.requires_manual_renewal = true;
        return void res.status(400).json({
          code: 'woocommerce_rest_invalid_payment_data',
          message:
            `Subscription payment method could not be set to ${gateway} with error message: ` +
            `The ${gateway} payment gateway does not support admin changing the payment method.`,
          data: { status: 400 },
        });
      }
      // The gateway is set after the other fields: an automatic gateway makes the subscription automatic.
      subscription.payment_method = gateway;
      subscription.requires_manual_renewal = false;
    }
    res.json(subscription);
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
        shipping_lines: [],
        payment_method: 'mollie_wc_gateway_ideal',
        payment_method_title: 'iDEAL',
        meta_data: [],
        date_created_gmt: this.stamp(index),
        date_modified_gmt: this.stamp(index),
        ...make(index),
      });
      const order = this.orders.get(id) as Json;
      // Lines as WooCommerce answers them: a line given with only its total cost that, without tax or coupon.
      order.line_items = ((order.line_items as Json[]) ?? []).map((line) => ({
        variation_id: 0,
        subtotal: line.total,
        subtotal_tax: '0.00',
        total_tax: '0.00',
        ...line,
      }));
      return id;
    });
  }

  /**
   * A webhook delivery of `topic` for `resource`, signed as WooCommerce signs: base64 HMAC-SHA256 of
   * the raw body. Its delivery id is the store's: made from the webhook's id and the current second,
   * so every delivery of one webhook within a second carries the same one.
   */
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
        'X-WC-Webhook-Delivery-ID': options.deliveryId ?? this.deliveryIdOf(hook),
        'X-WC-Webhook-Source': `${this.url}/`,
        'X-WC-Webhook-Signature': createHmac('sha256', options.secret ?? hook.secret)
          .update(body)
          .digest('base64'),
      },
    };
  }

  /**
   * Delivers it once to the address the webhook was registered with, as WooCommerce does: only while
   * the webhook is active, never again when it fails (anything but 200–302), and a webhook whose
   * delivery fails after more than 5 failures in a row is disabled. Answers the status (0: nothing
   * answered), or null when the webhook is not active and nothing was sent.
   */
  async deliver(
    topic: string,
    resource: Json,
    options: { deliveryId?: string; secret?: string; via?: { from: string; to: string } } = {},
  ): Promise<number | null> {
    const hook = [...this.webhooks.values()].find((candidate) => candidate.topic === topic);
    if (!hook) throw new Error(`no webhook registered for ${topic}`);
    if (hook.status !== 'active') return null;
    const { url, headers, body } = this.delivery(topic, resource, options);
    // `via`: the service's PUBLIC_URL stands for a server listening elsewhere on this machine.
    const target = options.via && url.startsWith(options.via.from) ? options.via.to + url.slice(options.via.from.length) : url;
    const status = await this.transport(target, headers, body);
    if (status >= 200 && status < 303) hook.failure_count = 0;
    else if (hook.failure_count > MAX_DELIVERY_FAILURES) hook.status = 'disabled';
    else hook.failure_count += 1;
    return status;
  }

  /** A change of a product or an order: its delivery waits for the queue, which reads the resource when it runs. */
  enqueue(topic: string, id: number): void {
    this.queued.push({ topic, id });
  }

  /**
   * Runs the queue (Action Scheduler): each delivery carries the resource as it is now, not as it was
   * when it changed; a deleted one only `{"id": N}`. Answers each delivery's status.
   */
  async runQueue(): Promise<Array<number | null>> {
    const due = this.queued.splice(0);
    const outcomes: Array<number | null> = [];
    for (const { topic, id } of due) {
      const records = topic.startsWith('product.') ? this.products : this.orders;
      const resource = topic.endsWith('.deleted') ? { id } : (records.get(id) ?? { id });
      outcomes.push(await this.deliver(topic, resource));
    }
    return outcomes;
  }

  /** `wp_hash(webhook_id . strtotime('now'))`: the same for one webhook within one second. */
  private deliveryIdOf(hook: Hook): string {
    const second = Math.floor(this.now().getTime() / 1000);
    return createHash('md5').update(`${hook.id}${second}`).digest('hex');
  }

  private shown(hook: Hook): Json {
    const { secret: _secret, failure_count: _failures, pending_delivery: _pending, ...shown } = hook;
    return shown;
  }

  /** Tax on an amount at the store's rate, rounded to cents as WooCommerce rounds a line's tax. */
  private tax(amount: number): number {
    return Math.round(amount * this.taxRate) / 100;
  }

  /** WooCommerce's payment_complete: paid now, and a payable order moves to processing. */
  private payComplete(order: Json): void {
    order.date_paid_gmt = new Date().toISOString().slice(0, 19);
    if (['pending', 'failed', 'on-hold'].includes(String(order.status))) order.status = 'processing';
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

  /**
   * Benchmarks only: a list's filtered and sorted items are kept between its pages (until a write
   * through the API), so paging through 100,000 records costs the simulator a page each, as a real
   * store's indexed query does, and the benchmark measures the service, not the simulator.
   */
  cacheLists = false;
  private listCache: { key: string; items: Json[] } | null = null;

  private list(req: Request, res: Response, store: Map<number, Json>): void {
    const query = res.locals.query as Record<string, string>;
    const perPage = Math.min(100, Number(query.per_page ?? 10));
    const page = Number(query.page ?? 1);
    // The same list whatever its page and its OAuth signature.
    const filters = Object.entries(query).filter(([name]) => name !== 'page' && !name.startsWith('oauth_'));
    const key = `${req.path} ${store.size} ${JSON.stringify(filters)}`;
    const cached = this.cacheLists && this.listCache?.key === key ? this.listCache.items : null;
    const items = cached ?? this.filtered(store, query);
    if (this.cacheLists) this.listCache = { key, items };
    res.set('X-WP-Total', String(items.length));
    res.set('X-WP-TotalPages', String(Math.max(1, Math.ceil(items.length / perPage))));
    res.json(items.slice((page - 1) * perPage, page * perPage));
  }

  private filtered(store: Map<number, Json>, query: Record<string, string>): Json[] {
    let items = [...store.values()];
    const after = query.modified_after ?? null;
    if (after) items = items.filter((item) => String(item.date_modified_gmt) > after);
    if (query.parent) items = items.filter((item) => String(item.parent_id) === query.parent);
    // Orders as WooCommerce lists them: trashed ones only when asked for by status.
    if (store === this.orders) {
      const statuses = query.status ? query.status.split(',') : null;
      items = items.filter((item) => (statuses ? statuses.includes(String(item.status)) : item.status !== 'trash'));
    }
    if (query.include) {
      const ids = new Set(query.include.split(',').map(Number));
      items = items.filter((item) => ids.has(Number(item.id)));
    }
    if (query.orderby === 'modified') items.sort((a, b) => String(a.date_modified_gmt).localeCompare(String(b.date_modified_gmt)));
    return items;
  }

  /** Permalinks, WooCommerce, faults, latency and OAuth, in the order a real store meets them. */
  private gate(req: Request, res: Response, next: () => void): void {
    // PHP keeps the last of repeated query parameters (the client library sends the URL's own twice).
    const query = Object.fromEntries(
      Object.entries(req.query).map(([key, value]) => [key, String(Array.isArray(value) ? value[value.length - 1] : value)]),
    );
    this.requests.push({ method: req.method, path: req.path, query });
    res.locals.query = query;
    if (req.method !== 'GET') this.listCache = null;
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
      const happening = this.happenings.find((one) => one.method === req.method && one.path.test(req.path));
      if (happening) {
        this.happenings = this.happenings.filter((one) => one !== happening);
        if (happening.when === 'before') happening.action();
        else res.on('finish', happening.action);
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
