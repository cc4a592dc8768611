import { validate } from 'node-cron';
import type { IdempotencyKeyRow } from '../../src/http/idempotency';
import { purgeExpiredIdempotencyKeys, purgeIdempotencyKeysJob } from '../../src/jobs/purgeIdempotencyKeys';
import { toDbDateTime } from '../../src/time';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const HOUR_MS = 60 * 60 * 1000;

describe.each(TEST_DATABASES)('purge-idempotency-keys job on %s', (kind) => {
  const t = useTestApp(kind);

  const validCustomer = { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' };
  const running = () => new AbortController().signal;

  const keysOf = async (accountId: string) =>
    (
      await t.ctx
        .db('idempotency_keys')
        .where({ account_id: accountId })
        .orderBy('idempotency_key')
        .select<{ idempotency_key: string }[]>('idempotency_key')
    ).map((row) => row.idempotency_key);

  /** Rows written straight into the table, each expiring at the given time. */
  async function seedKeys(accountId: string, names: string[], expiresAt: Date) {
    const rows: IdempotencyKeyRow[] = names.map((name) => ({
      account_id: accountId,
      idempotency_key: name,
      request_hash: '0'.repeat(64),
      state: 'done',
      locked_until: null,
      resource_id: null,
      response_status: 201,
      response_body: '{}',
      created_at: toDbDateTime(new Date(expiresAt.getTime() - 24 * HOUR_MS)),
      expires_at: toDbDateTime(expiresAt),
    }));
    await t.ctx.db('idempotency_keys').insert(rows);
  }

  it('When it runs, then only keys past their 24 hours are deleted and a younger key still replays', async () => {
    const { accountId, token } = await t.newAccount();
    await t.as(token).post('/api/v2/customers', validCustomer).set('Idempotency-Key', 'old');
    t.clock.advance(12 * HOUR_MS);
    const young = await t.as(token).post('/api/v2/customers', validCustomer).set('Idempotency-Key', 'young');
    t.clock.advance(12 * HOUR_MS + 1000);

    const result = await purgeIdempotencyKeysJob.run(t.ctx, running());

    expect(result).toEqual({ processed: 1, failed: 0 });
    expect(await keysOf(accountId)).toEqual(['young']);
    const replay = await t.as(token).post('/api/v2/customers', validCustomer).set('Idempotency-Key', 'young');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(young.body.id);
  });

  it('When a key expires exactly now, then it is deleted; one a second later stays', async () => {
    const { accountId } = await t.newAccount();
    const now = t.clock.now();
    await seedKeys(accountId, ['due'], now);
    await seedKeys(accountId, ['not-yet'], new Date(now.getTime() + 1000));

    await purgeIdempotencyKeysJob.run(t.ctx, running());

    expect(await keysOf(accountId)).toEqual(['not-yet']);
  });

  it('When more keys are expired than fit in one batch, then every batch is deleted', async () => {
    const { accountId } = await t.newAccount();
    const now = t.clock.now();
    await seedKeys(accountId, ['a', 'b', 'c', 'd', 'e'], new Date(now.getTime() - HOUR_MS));
    await seedKeys(accountId, ['f'], new Date(now.getTime() + HOUR_MS));

    expect(await purgeExpiredIdempotencyKeys(t.ctx.db, now, running(), 2)).toBe(5);
    expect(await keysOf(accountId)).toEqual(['f']);
  });

  it('When the run is told to stop, then it deletes nothing more', async () => {
    const { accountId } = await t.newAccount();
    const now = t.clock.now();
    await seedKeys(accountId, ['a', 'b'], new Date(now.getTime() - HOUR_MS));
    const controller = new AbortController();
    controller.abort();

    expect(await purgeExpiredIdempotencyKeys(t.ctx.db, now, controller.signal, 1)).toBe(0);
    expect(await keysOf(accountId)).toEqual(['a', 'b']);
  });

  it('When the job is scheduled, then its cron expression is valid and its name is stable', () => {
    expect(purgeIdempotencyKeysJob.name).toBe('purge-idempotency-keys');
    expect(validate(purgeIdempotencyKeysJob.schedule)).toBe(true);
    expect(purgeIdempotencyKeysJob.leaseSeconds).toBeGreaterThan(0);
  });
});
