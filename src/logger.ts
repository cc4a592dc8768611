import winston from 'winston';

/** Keys whose values never reach a log line, at any depth. */
const SECRET_KEYS = /^(authorization|token|api_?key|app_?key|secret|password|consumer_account|consumer_secret|iban|webhook_secret)$/i;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
      key,
      SECRET_KEYS.test(key) ? '[redacted]' : redact(inner, depth + 1),
    ]),
  );
}

const redactSecrets = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (SECRET_KEYS.test(key)) info[key] = '[redacted]';
    else info[key] = redact(info[key]);
  }
  // A bearer token pasted into a message is masked too.
  if (typeof info.message === 'string') info.message = info.message.replace(/rps_[0-9A-Za-z]{8,}/g, 'rps_[redacted]');
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
