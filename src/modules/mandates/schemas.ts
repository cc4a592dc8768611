import { z } from 'zod';
import { optionalText, requiredText } from '../../validation/fields';
import { isValidIban, normalizeIban } from './iban';

/** SEPA mandate references (the EPC's "Mandate Reference"): at most 35 of these characters. */
const SEPA_REFERENCE = /^[A-Za-z0-9 +?/\-:().,']+$/;
export const MANDATE_REFERENCE_MAX = 35;

export const createMandateBody = z.object({
  consumer_name: requiredText(191),
  consumer_account: requiredText(64).transform(normalizeIban).refine(isValidIban, 'The :attribute field must be a valid IBAN.'),
  custom_mandate_reference: optionalText(MANDATE_REFERENCE_MAX).refine(
    (reference) => reference === null || reference === undefined || SEPA_REFERENCE.test(reference),
    "The :attribute field may only contain letters, digits, spaces and + ? / - : ( ) . , '",
  ),
});

export type CreateMandateInput = z.output<typeof createMandateBody>;

export const customerMandatesParams = z.object({ customerId: z.string() });

export const customerMandateParams = z.object({ customerId: z.string(), mandateId: z.string() });

const directDebitDetails = z.object({
  consumer_name: z.string().nullable(),
  consumer_account: z.string().nullable().describe('IBAN'),
  consumer_bic: z.string().nullable().describe('null when the provider does not know it'),
});

const creditCardDetails = z.object({
  card_holder: z.string().nullable(),
  card_number: z.string().nullable().describe('last digits only'),
  card_expiry_date: z.string().nullable().describe('Y-m-d'),
  card_label: z.string().nullable(),
  card_fingerprint: z.string().nullable(),
});

const mandateFields = {
  id: z.string().describe("the provider's mandate id (mdt_…)"),
  status: z.enum(['valid', 'invalid', 'pending']),
  custom_mandate_reference: z
    .string()
    .nullable()
    .describe('the mandate reference in effect: the one the client chose, or the one the service generated'),
  signature_date: z.string().nullable().describe('Y-m-d'),
};

/** docs/api.md, Mandate; `details` carries the fields of the mandate's method only. */
export const mandateResponse = z.discriminatedUnion('method', [
  z.object({ ...mandateFields, method: z.literal('directdebit'), details: directDebitDetails }),
  z.object({ ...mandateFields, method: z.literal('creditcard'), details: creditCardDetails }),
]);

export type MandateResponse = z.infer<typeof mandateResponse>;

/** A customer's mandates, oldest first; not paged: a customer has a handful at most. */
export const mandateListResponse = z.object({ data: z.array(mandateResponse) });
