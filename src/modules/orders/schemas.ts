import { z } from 'zod';
import { listQueryWith, statusFilter } from '../../validation/listFilters';
import { productResponse } from '../products/schemas';
import { ORDER_STATUSES } from './repository';

export const orderLineResponse = z.object({
  quantity: z.number().int(),
  product: productResponse,
  next_order: z.string().nullable().describe('Y-m-d'),
});

const buyerText = () => z.string().nullable();

/** docs/api.md, Order. Buyer, shipping and shop fields are null when the order does not have them. */
export const orderResponse = z.object({
  id: z.string(),
  status: z.enum(ORDER_STATUSES),
  total_amount: z.string(),
  currency: z.string(),
  created_at: z.string().describe('Y-m-d H:i:s in APP_TIMEZONE'),
  order_number: z.string(),
  first_name: buyerText(),
  last_name: buyerText(),
  email: buyerText(),
  organization_name: buyerText(),
  phone: buyerText(),
  address: buyerText(),
  postal_code: buyerText(),
  city: buyerText(),
  country: buyerText(),
  vat_number: buyerText(),
  carrier: z.string().nullable(),
  tracktrace: z.string().nullable(),
  shop_order_id: z.number().int().nullable(),
  shop_order_number: z.string().nullable(),
  subscription: z.string().nullable().describe('id of the related subscription'),
  subscription_status: z.string().nullable(),
  cancel_subscription_at: z.string().nullable().describe('Y-m-d'),
  products: z.array(orderLineResponse),
});

export type OrderLineResponse = z.infer<typeof orderLineResponse>;
export type OrderResponse = z.infer<typeof orderResponse>;

/** `GET /api/v2/orders`: the page query and its filter (an extension). */
export const orderListQuery = listQueryWith({ status: statusFilter(ORDER_STATUSES) });
