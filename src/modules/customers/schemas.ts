import { z } from 'zod';
import { pageQuerySchema } from '../../validation/pagination';
import { LOCALES } from '../../i18n/locales';
import { email, optionalCountry, optionalLocale, optionalText, requiredText } from '../../validation/fields';

const optionalFields = {
  number: optionalText(),
  phone: optionalText(),
  organization_name: optionalText(),
  address: optionalText(),
  postal_code: optionalText(),
  city: optionalText(),
  country: optionalCountry(),
  vat_number: optionalText(),
  locale: optionalLocale(),
};

export const createCustomerBody = z.object({
  first_name: requiredText(),
  last_name: requiredText(),
  email: email(),
  ...optionalFields,
});

/** Every field optional; omitted fields keep their value. Required fields cannot be emptied. */
export const updateCustomerBody = z.object({
  first_name: requiredText().optional(),
  last_name: requiredText().optional(),
  email: email().optional(),
  ...optionalFields,
});

/** `GET /api/v2/customers`: the spec's paging, and (extension) `email` to find a buyer's customer. */
export const customerListQuery = pageQuerySchema.extend({
  email: email().optional().describe('extension: only the customers with exactly this e-mail address'),
});

export type CreateCustomerInput = z.output<typeof createCustomerBody>;
export type UpdateCustomerInput = z.output<typeof updateCustomerBody>;

export const customerResponse = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  created_at: z.string().describe('Y-m-d H:i:s in APP_TIMEZONE'),
  number: z.string().nullable(),
  phone: z.string().nullable(),
  organization_name: z.string().nullable(),
  address: z.string().nullable(),
  postal_code: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  vat_number: z.string().nullable(),
  locale: z.enum(LOCALES).nullable(),
  provider_customer_id: z.string().nullable(),
});

export type CustomerResponse = z.infer<typeof customerResponse>;
