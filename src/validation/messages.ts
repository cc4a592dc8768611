import { z } from 'zod';
import { ValidationError, type FieldErrors } from '../errors';

/**
 * Turns zod issues into Laravel-style messages keyed by dot paths (`rules.0.amount`), so clients of
 * the original service read the errors they already know: "The first name field is required."
 */

type Issue = z.core.$ZodIssue;

function attributeName(path: PropertyKey[]): string {
  return path.map(String).join('.').replace(/_/g, ' ');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function isMissing(issue: Issue): boolean {
  return 'input' in issue && (issue.input === undefined || issue.input === null);
}

function isSafeIntegerBound(issue: Issue): boolean {
  const bound = issue.code === 'too_small' ? issue.minimum : issue.code === 'too_big' ? issue.maximum : null;
  return bound !== null && Math.abs(Number(bound)) === Number.MAX_SAFE_INTEGER;
}

function messageFor(issue: Issue, attribute: string): string {
  const field = `The ${attribute} field`;
  // An absent or null value fails enums and unions too; to the client it is simply missing.
  if (isMissing(issue) && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code)) return `${field} is required.`;
  // zod's integers are bounded by the safe range; past it the number cannot be an exact integer.
  if ((issue.code === 'too_small' || issue.code === 'too_big') && isSafeIntegerBound(issue)) return `${field} must be an integer.`;
  switch (issue.code) {
    case 'invalid_type':
      return `${field} must be ${TYPE_WORDS[issue.expected] ?? `of type ${issue.expected}`}.`;
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'string') {
        return minimum <= 1 ? `${field} is required.` : `${field} must be at least ${minimum} characters.`;
      }
      if (issue.origin === 'array') return `${field} must have at least ${minimum} item${minimum === 1 ? '' : 's'}.`;
      return issue.inclusive ? `${field} must be at least ${minimum}.` : `${field} must be greater than ${minimum}.`;
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'string') return `${field} must not be greater than ${maximum} characters.`;
      if (issue.origin === 'array') return `${field} must not have more than ${maximum} items.`;
      return issue.inclusive ? `${field} must not be greater than ${maximum}.` : `${field} must be less than ${maximum}.`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return `${field} must be a valid email address.`;
      if (issue.format === 'url') return `${field} must be a valid URL.`;
      return issue.message.includes(':attribute') ? issue.message.replace(/:attribute/g, attribute) : `${field} format is invalid.`;
    case 'invalid_value':
      return `The selected ${attribute} is invalid.`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${String(issue.divisor)}.`;
    case 'custom':
      return issue.message.replace(/:attribute/g, attribute);
    default:
      return `${field} is invalid.`;
  }
}

export function fieldErrorsFromZod(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'body';
    const attribute = issue.path.length ? attributeName(issue.path) : 'request body';
    const message = messageFor(issue, attribute);
    const list = (fields[key] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return fields;
}

/** Parses input with a schema or throws a 422 with `fields`. `failure` is the error sentence. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, failure: string): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw new ValidationError(failure, fieldErrorsFromZod(result.error));
  return result.data;
}
