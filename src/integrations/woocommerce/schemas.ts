import { z } from 'zod';

/**
 * What wc/v3 answers, as far as we use it. Money comes as decimal strings, ids as integers; unknown
 * fields are allowed (stores add plenty through plugins) and ignored.
 */
const metaData = z.array(z.object({ key: z.string(), value: z.unknown() })).default([]);

/**
 * A product as `/products` answers it, and a variation as `/products/{id}/variations` answers it (the
 * same fields, `type` "variation", `parent_id` its product, `name` its attribute values "Blue, S").
 * A product webhook's body for a variation is `/products/{variation id}`: also `type` "variation".
 */
export const wooProduct = z.object({
  id: z.number().int().positive(),
  name: z.string().default(''),
  type: z.string(), // simple, variable, subscription, variable-subscription, grouped, external; variation
  parent_id: z.number().int().nonnegative().default(0),
  /** A variable product's variation ids. */
  variations: z.array(z.number().int().positive()).default([]),
  /** On a variation: the option it has of each attribute. */
  attributes: z.array(z.object({ name: z.string().default(''), option: z.string().optional() }).passthrough()).default([]),
  status: z.string(),
  sku: z.string().default(''),
  price: z.string().default(''),
  regular_price: z.string().default(''),
  virtual: z.boolean().default(false),
  shipping_required: z.boolean().optional(),
  date_modified_gmt: z.string().nullable().optional(),
  meta_data: metaData,
});
export type WooProduct = z.infer<typeof wooProduct>;

const address = z.object({
  first_name: z.string().default(''),
  last_name: z.string().default(''),
  company: z.string().default(''),
  address_1: z.string().default(''),
  address_2: z.string().default(''),
  city: z.string().default(''),
  postcode: z.string().default(''),
  country: z.string().default(''),
  email: z.string().default(''),
  phone: z.string().default(''),
});

/** The taxes of an order line by tax rate id: `[{"id": 1, "total": "4.2", "subtotal": "4.2"}]`. */
const lineTaxes = z
  .array(
    z.object({
      id: z.number().int(),
      total: z.union([z.string(), z.number()]).default(''),
      subtotal: z.union([z.string(), z.number()]).optional(),
    }),
  )
  .default([]);

export const wooOrder = z.object({
  id: z.number().int().positive(),
  number: z.string(),
  parent_id: z.number().int().default(0),
  /** The store account that placed the order; 0: a guest. */
  customer_id: z.number().int().default(0),
  status: z.string(),
  currency: z.string().length(3),
  total: z.string(),
  date_modified_gmt: z.string().nullable().optional(),
  date_created_gmt: z.string().nullable().optional(),
  payment_method: z.string().default(''),
  payment_method_title: z.string().default(''),
  billing: address.partial().default({}),
  line_items: z
    .array(
      z.object({
        id: z.number().int(),
        name: z.string().default(''),
        product_id: z.number().int(),
        /** The variation bought (0: none); `product_id` is then its variable product. */
        variation_id: z.number().int().default(0),
        quantity: z.number().int(),
        total: z.string(),
        total_tax: z.string().default('0'),
        taxes: lineTaxes,
        // Absent on a store that leaves them out: the amount of a renewal cannot be derived then.
        subtotal: z.string().optional(),
        subtotal_tax: z.string().optional(),
      }),
    )
    .default([]),
  shipping_lines: z
    .array(
      z.object({
        method_id: z.string().default(''),
        method_title: z.string().default(''),
        total: z.string(),
        total_tax: z.string().default('0'),
        taxes: lineTaxes,
      }),
    )
    .default([]),
  fee_lines: z
    .array(z.object({ name: z.string().default(''), total: z.string(), total_tax: z.string().default('0'), taxes: lineTaxes }))
    .default([]),
  /** The order's tax rates (WooCommerce 3.7+ says each one's percentage). */
  tax_lines: z.array(z.object({ rate_id: z.number().int(), rate_percent: z.number().optional() })).default([]),
  meta_data: metaData,
});
export type WooOrder = z.infer<typeof wooOrder>;

export const wooWebhook = z.object({
  id: z.number().int().positive(),
  topic: z.string(),
  delivery_url: z.string(),
  status: z.string(),
});
export type WooWebhook = z.infer<typeof wooWebhook>;

/** `GET /wp-json/wc/v3` (the API index): proves the address is a WooCommerce store and the keys work. */
export const wooIndex = z.object({ namespace: z.literal('wc/v3'), routes: z.record(z.string(), z.unknown()) });

/** A date of WooCommerce Subscriptions' REST answer: `2026-12-25T10:00:00` (GMT), or "" when the subscription has none. */
const subscriptionDate = z
  .string()
  .nullable()
  .default('')
  .transform((value) => (value ? value : null));

/**
 * A subscription as WooCommerce Subscriptions' `/wc/v3/subscriptions` answers it (7.8, checked in the
 * real store: test/fixtures/woocommerce/subscription-created.json): an order's fields plus the
 * schedule. `billing_interval` comes as a string ("1"); dates the subscription lacks come as "".
 */
export const wooSubscription = z.object({
  id: z.number().int().positive(),
  parent_id: z.number().int().default(0),
  status: z.string(),
  currency: z.string().length(3),
  total: z.string(),
  total_tax: z.string().default('0.00'),
  customer_id: z.number().int().default(0),
  billing: address.partial().default({}),
  payment_method: z.string().default(''),
  billing_period: z.enum(['day', 'week', 'month', 'year']),
  billing_interval: z.union([z.string().regex(/^\d+$/), z.number().int()]).transform((value) => Number(value)),
  requires_manual_renewal: z.boolean(),
  start_date_gmt: subscriptionDate,
  next_payment_date_gmt: subscriptionDate,
  last_payment_date_gmt: subscriptionDate,
  end_date_gmt: subscriptionDate,
  line_items: z
    .array(
      z.object({
        product_id: z.number().int(),
        variation_id: z.number().int().default(0),
        name: z.string().default(''),
        quantity: z.number().int(),
        total: z.string(),
        total_tax: z.string().default('0.00'),
      }),
    )
    .default([]),
  meta_data: metaData,
});
export type WooSubscription = z.infer<typeof wooSubscription>;
