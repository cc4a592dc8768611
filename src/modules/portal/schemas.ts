import { z } from 'zod';
import { httpUrl, optionalLocale } from '../../validation/fields';

export const portalSessionParams = z.object({ customerId: z.string() });

export const createPortalSessionBody = z.object({
  return_url: httpUrl().nullable().optional().describe('where the portal’s “back to the shop” goes (http or https)'),
  locale: optionalLocale().describe('the portal’s language; absent: the customer’s, else the browser’s'),
});

export type CreatePortalSessionInput = z.output<typeof createPortalSessionBody>;

export const portalSessionResponse = z.object({
  id: z.string().describe('the link’s id (ptk_…)'),
  customer_id: z.string(),
  url: z.string().describe('send the customer here: a single-use link that opens the portal; valid until expires_at'),
  return_url: z.string().nullable(),
  locale: z.enum(['nl', 'en', 'fr', 'de', 'es']).nullable(),
  expires_at: z.string().describe('Y-m-d H:i:s, an hour after created_at'),
  created_at: z.string().describe('Y-m-d H:i:s'),
});

export type PortalSessionResponse = z.infer<typeof portalSessionResponse>;
