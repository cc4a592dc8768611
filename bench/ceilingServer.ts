import express from 'express';
import { connectDatabase } from '../src/db/connect';
import { newId } from '../src/ids';
import { createLogger } from '../src/logger';
import { toDbDateTime } from '../src/time';

/**
 * The ceiling of the HTTP cases, in a process of its own like the service: bare express with no
 * auth, validation, rate limit or logging. `GET /*` answers CEILING_BODY (the same JSON the service
 * gave); with CEILING_DATABASE_URL, `POST /api/v2/customers` does the same insert the service does.
 * `POST /events` takes a merchant's events (the billing case delivers its events here).
 */
const app = express();
app.disable('x-powered-by');
const body = process.env.CEILING_BODY ?? '{}';
const url = process.env.CEILING_DATABASE_URL;
// The service's own connection settings (pool, SQLite pragmas), so only the framework around differs.
const db = url ? connectDatabase(url, createLogger('warn')) : null;
const accountId = process.env.CEILING_ACCOUNT_ID ?? '';

app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.post('/api/v2/customers', express.json(), async (req, res) => {
  if (!db) throw new Error('CEILING_DATABASE_URL is not set');
  const input = req.body as { first_name: string; last_name: string; email: string };
  const stamp = toDbDateTime(new Date());
  const row = {
    id: newId('cus'),
    account_id: accountId,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    created_at: stamp,
    updated_at: stamp,
  };
  await db('customers').insert(row);
  res.status(201).json(row);
});
app.post('/events', (req, res) => {
  req.resume();
  req.once('end', () => res.status(204).end());
});
app.get('/{*any}', (_req, res) => {
  res.type('application/json').send(body);
});
app.listen(Number(process.env.PORT), '127.0.0.1');
