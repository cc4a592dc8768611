import winston from 'winston';

/** Keys whose values never reach a log line, at any depth. */
const SECRET_KEYS = /^(authorization|token|api_?key|app_?key|secret|password|consumer_account|consumer_secret|iban|webhook_secret)$/i;

/**
 * Personal data that database and provider errors carry inside their text (a failed insert's values,
 * MySQL's "Duplicate entry '…'"). Knex no longer puts bound values into messages (compileSqlOnError),
 * but a message from anywhere else may still quote a customer, so every string is scrubbed.
 */
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
/**
 * IBANs as written: electronic (NL91ABNA0417164300) or in groups of four. Upper case only, and
 * whole words only: our ids (`cus_4fJ9aZ…`) and the provider's (`tr_…`) join their prefix with `_`, so no
 * word boundary starts inside them, and mixed-case base62 never matches.
 */
const IBAN = /\b[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?)\b/g;
/** MySQL names the duplicated value: `Duplicate entry 'jan@example.nl' for key 'customers.email'`. */
const DUPLICATE_ENTRY = /Duplicate entry '(?:(?!' for key )[\s\S])*'?/g;
const BEARER_TOKEN = /rps_[0-9A-Za-z]{8,}/g;

/** A string as it may appear in a log line: no e-mail addresses, IBANs, duplicated values or tokens. */
export function scrubPersonalData(text: string): string {
  return text
    .replace(DUPLICATE_ENTRY, "Duplicate entry '[redacted]'")
    .replace(EMAIL, '[email]')
    .replace(IBAN, '[iban]')
    .replace(BEARER_TOKEN, 'rps_[redacted]');
}

/** Deeper than any entry we write; what lies below is dropped rather than logged unscrubbed. */
const MAX_DEPTH = 10;

function redact(value: unknown, depth: number, ancestors: WeakSet<object>): unknown {
  if (typeof value === 'string') return scrubPersonalData(value);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (depth > MAX_DEPTH) return '[too deep]';
  if (ancestors.has(value)) return '[circular]';
  ancestors.add(value);
  const redacted = Array.isArray(value)
    ? value.map((item) => redact(item, depth + 1, ancestors))
    : Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
          key,
          SECRET_KEYS.test(key) ? '[redacted]' : redact(inner, depth + 1, ancestors),
        ]),
      );
  ancestors.delete(value);
  return redacted;
}

/** The message and every field, at any depth. */
const redactSecrets = winston.format((info) => {
  const ancestors = new WeakSet<object>([info]);
  for (const key of Object.keys(info)) {
    info[key] = SECRET_KEYS.test(key) ? '[redacted]' : redact(info[key], 1, ancestors);
  }
  return info;
});

export type Logger = winston.Logger;

/** JSON lines on stdout; `silent` for tests that do not look at logs. */
export function createLogger(level: string, options: { silent?: boolean } = {}): Logger {
  return winston.createLogger({
    level,
    silent: options.silent ?? false,
    format: winston.format.combine(redactSecrets(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
