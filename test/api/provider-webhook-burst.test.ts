import request from 'supertest';
import { accountsRepository } from '../../src/modules/accounts/repository';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

/**
 * A burst of provider webhook calls (Mollie settles a billing day's debits at once): every call is
 * kept before it is answered, calls arriving together share one insert, and each is processed once
 * the burst has been answered.
 */
describe.each(TEST_DATABASES)('a burst of provider webhook calls on %s', (kind) => {
  const t = useTestApp(kind);

  it(
    'When 150 calls arrive at once, then each is answered 200 after it was kept, each with its own row, and all are ' + 'processed',
    async () => {
      const { accountId } = await t.newAccount();
      const { public_ref: ref } = await t.ctx.db('accounts').where({ id: accountId }).first('public_ref');
      const inserts: string[] = [];
      const onQuery = (query: { sql: string }) => {
        if (/^insert into `provider_webhook_calls`/i.test(query.sql)) inserts.push(query.sql);
      };
      t.ctx.db.on('query', onQuery);
      const answers = await Promise.all(
        Array.from({ length: 150 }, (_, index) =>
          request(t.app)
            .post(`/webhooks/mollie?account=${String(ref)}`)
            .type('form')
            .send({ id: `tr_burst${index}` }),
        ),
      );
      t.ctx.db.off('query', onQuery);
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      const rows = await t.ctx.db('provider_webhook_calls').where({ account_id: accountId });
      expect(new Set(rows.map((row: { resource_id: string }) => row.resource_id)).size).toBe(150);
      // Kept by multi-row inserts (not one insert and commit per call), far fewer than the calls: they arrived together.
      expect(inserts.length).toBeGreaterThan(0);
      expect(inserts.length).toBeLessThan(50);
      await t.ctx.background.idle();
      const unprocessed = await t.ctx.db('provider_webhook_calls').where({ account_id: accountId }).whereNull('processed_at');
      expect(unprocessed).toEqual([]);
    },
  );

  it(
    'When a burst of calls names one account, then the account is read once; an unknown reference is not remembered and is found ' +
      'once it exists',
    async () => {
      const { accountId } = await t.newAccount();
      const { public_ref: ref } = await t.ctx.db('accounts').where({ id: accountId }).first('public_ref');
      const lookups = jest.spyOn(accountsRepository, 'findByPublicRef');
      try {
        await Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            request(t.app)
              .post(`/webhooks/mollie?account=${String(ref)}`)
              .type('form')
              .send({ id: `tr_once${index}` })
              .expect(200),
          ),
        );
        expect(lookups.mock.calls.filter(([, publicRef]) => publicRef === ref)).toHaveLength(1);

        const later = 'acct_notyetthere01';
        await request(t.app).post(`/webhooks/mollie?account=${later}`).type('form').send({ id: 'tr_early1' }).expect(200);
        const { accountId: laterId } = await t.newAccount();
        await t.ctx.db('accounts').where({ id: laterId }).update({ public_ref: later });
        await request(t.app).post(`/webhooks/mollie?account=${later}`).type('form').send({ id: 'tr_later1' }).expect(200);
        expect(await t.ctx.db('provider_webhook_calls').where({ account_id: laterId }).pluck('resource_id')).toEqual(['tr_later1']);
      } finally {
        lookups.mockRestore();
      }
      await t.ctx.background.idle();
    },
  );
});
