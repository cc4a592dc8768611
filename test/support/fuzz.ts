import fc from 'fast-check';
import type request from 'supertest';
import { z } from 'zod';

/**
 * What fuzzing the API is made of: awkward numbers and strings, bodies that are garbage or almost
 * right, and the check that an answer is never a 5xx and every error has the documented shape.
 */

/** Every property name anywhere in the body schema, so garbage lands on fields the route knows. */
export function fieldNamesOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return ['name'];
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) for (const name of Object.keys(value)) names.add(name);
      walk(value);
    }
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  return names.size ? [...names] : ['name'];
}

export const awkwardNumbers = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0.1 + 0.2, 19.999, 19.990000000000002, 1e21, -0, 5e-324, 2 ** 53 + 2, 1.7976931348623157e308, -1, 0),
  fc.integer(),
);

export const awkwardStrings = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }), // lone surrogates, control characters, astral planes
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'null',
    '2026-02-30',
    '9999-99-99',
    'NL91ABNA0417164300',
    'javascript:alert(1)',
    '💶'.repeat(100),
    '__proto__',
  ),
  fc.nat({ max: 300_000 }).map((length) => 'x'.repeat(length)),
);

/** Real ids of the test account, so plausible bodies can get past the services' checks too. */
export interface KnownIds {
  customerId: string;
  providerCustomerId: string;
  mandateId: string;
}

const RULE_FIELDS = ['amount', 'interval', 'interval_amount', 'day', 'times', 'invoice_rules'];
const INVOICE_RULE_FIELDS = ['quantity', 'description', 'amount', 'vat', 'ledger_account_id'];

/** Values that pass the rules of the spec's fields. */
function plausibleValue(field: string, ids: KnownIds, awkward: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const known: Record<string, unknown[]> = {
    email: ['anna@example.nl'],
    country: ['NL', 'be'],
    locale: ['nl', 'en'],
    consumer_account: ['NL91ABNA0417164300'],
    amount: [12.5, 0.01, 1000],
    vat: [21, 9, 0, '21', '9.5'],
    currency: ['EUR'],
    type: ['once', 'subscription', 'shipping_costs'],
    interval: ['month', 'weeks', 'day', 'year'],
    interval_value: [1, 3],
    interval_amount: [1, 2],
    times: [1, 12, null],
    day: [1, 7, 31, 0],
    quantity: [1, 2],
    method: ['ideal', 'creditcard'],
    start_date: ['2026-11-21', '2026-12-01', '2027-02-28'],
    customer_id: [ids.customerId],
    provider_customer_id: [ids.providerCustomerId],
    provider_mandate_id: [ids.mandateId],
    provider_profile_id: ['pfl_0000000000'],
    redirect_url: ['https://shop.example.nl/thanks'],
    webhook_url: ['https://shop.example.nl/hook'],
  };
  if (field === 'rules') return fc.array(knownFieldsBody(RULE_FIELDS, ids, awkward), { minLength: 1, maxLength: 3 });
  if (field === 'invoice_rules') return fc.array(knownFieldsBody(INVOICE_RULE_FIELDS, ids, awkward), { maxLength: 2 });
  return fc.constantFrom(...(known[field] ?? ['Anna de Vries', 'Monthly box']));
}

/** Every given field, most with a plausible value and now and then an awkward one. */
function knownFieldsBody(fields: string[], ids: KnownIds, awkward: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  const values = fields.map(
    (field) =>
      [field, fc.oneof({ weight: 12, arbitrary: plausibleValue(field, ids, awkward) }, { weight: 1, arbitrary: awkward })] as const,
  );
  return fc.record(Object.fromEntries(values), { requiredKeys: fields });
}

export function garbageBodies(fields: string[], ids: KnownIds): fc.Arbitrary<unknown> {
  const keys = fc.oneof(fc.constantFrom(...fields), fc.constantFrom('__proto__', 'constructor', 'toString'), fc.string({ maxLength: 8 }));
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      awkwardStrings,
      awkwardNumbers,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(keys, tie('value'), { maxKeys: 6 }),
    ),
  }));
  return fc.oneof(
    fc.jsonValue(),
    value,
    // Each known field with a value of a wrong or awkward type.
    fc.dictionary(fc.constantFrom(...fields), value, { minKeys: 1, maxKeys: fields.length }),
    fc.array(fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 4 }), { maxLength: 3 }),
    // Known fields (nested names too, which the body ignores), mostly plausible: reaches the services.
    { weight: 3, arbitrary: knownFieldsBody(fields, ids, value) },
  );
}

type ErrorBody = { status: unknown; error: unknown; code: unknown; fields?: unknown };

export function expectDocumentedAnswer(res: request.Response): void {
  expect(res.status).toBeLessThan(500);
  if (res.status < 400) return;
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.body as ErrorBody;
  expect(Object.keys(body).every((key) => ['status', 'error', 'code', 'fields'].includes(key))).toBe(true);
  expect(body.status).toBe(res.status);
  expect(typeof body.error === 'string' && body.error.length > 0).toBe(true);
  expect(typeof body.code === 'string' && body.code.length > 0).toBe(true);
  expect('fields' in body).toBe(res.status === 422);
  if (res.status === 422) {
    const fields = body.fields as Record<string, unknown>;
    expect(typeof fields === 'object' && fields !== null && !Array.isArray(fields)).toBe(true);
    expect(Object.keys(fields).length).toBeGreaterThan(0);
    for (const messages of Object.values(fields)) {
      expect(Array.isArray(messages) && messages.length > 0 && messages.every((message) => typeof message === 'string')).toBe(true);
    }
  }
}
