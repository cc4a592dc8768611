import { createHash } from 'node:crypto';
import request from 'supertest';
import { TOKEN_DISPLAY_LENGTH } from '../../src/modules/accounts/tokens';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { cli, lastLine } from './runInMemory';

describe.each(TEST_DATABASES)('cli tokens on %s', (kind) => {
  const t = useTestApp(kind);

  async function tokenRows(): Promise<Record<string, unknown>[]> {
    return t.ctx.db('api_tokens').select();
  }

  describe('tokens create', () => {
    it('When a token is created for a new account, then the last stdout line is the token and it opens the API', async () => {
      const result = await cli(t.ctx, 'tokens', 'create', '--account', 'Bakkerij Jansen');
      expect(result).toMatchObject({ code: 0, err: [] });
      const token = lastLine(result.out);
      expect(token).toMatch(/^rps_[0-9A-Za-z]{32,}$/);
      const res = await t.as(token).get('/api/v2/customers');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      const account = await t.ctx.db('accounts').where({ name: 'Bakkerij Jansen' }).first();
      expect(account).toBeDefined();
    });

    it('When a token is created, then only its SHA-256 is stored and the clear token appears nowhere in api_tokens', async () => {
      const token = lastLine((await cli(t.ctx, 'tokens', 'create', '--account', 'Hash Check')).out);
      const rows = await tokenRows();
      const stored = rows.find((row) => row.token_hash === createHash('sha256').update(token).digest('hex'));
      expect(stored).toBeDefined();
      expect(stored?.prefix).toBe(token.slice(0, TOKEN_DISPLAY_LENGTH));
      const everything = JSON.stringify(rows);
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(token.slice(TOKEN_DISPLAY_LENGTH));
    });

    it('When a second token is created for an existing account, then both work for that same account', async () => {
      const first = lastLine((await cli(t.ctx, 'tokens', 'create', '--account', 'Two Tokens')).out);
      const second = lastLine((await cli(t.ctx, 'tokens', 'create', '--account', 'Two Tokens')).out);
      expect(second).not.toBe(first);
      expect(await t.ctx.db('accounts').where({ name: 'Two Tokens' }).count({ n: '*' })).toEqual([{ n: 1 }]);
      const created = await t.as(first).post('/api/v2/customers', { first_name: 'A', last_name: 'B', email: 'a@example.nl' });
      const seen = await t.as(second).get(`/api/v2/customers/${created.body.id}`);
      expect(seen.status).toBe(200);
    });

    it('When --account is missing or blank, then one error line is printed on stderr and the exit code is 1', async () => {
      const missing = await cli(t.ctx, 'tokens', 'create');
      expect(missing).toEqual({ code: 1, out: [], err: ["error: required option '--account <name>' not specified"] });
      const blank = await cli(t.ctx, 'tokens', 'create', '--account', '   ');
      expect(blank).toEqual({ code: 1, out: [], err: ['error: An account name must be 1 to 191 characters'] });
    });
  });

  describe('tokens list', () => {
    it('When an account has tokens, then each line shows prefix, created at, last used and state', async () => {
      t.clock.set('2026-11-21T10:00:00Z');
      const token = lastLine((await cli(t.ctx, 'tokens', 'create', '--account', 'Listed')).out);
      const prefix = token.slice(0, TOKEN_DISPLAY_LENGTH);
      // 10:00 UTC is 11:00 in Amsterdam.
      expect((await cli(t.ctx, 'tokens', 'list', '--account', 'Listed')).out).toEqual([
        `${prefix}  created 2026-11-21 11:00:00  last used never  active`,
      ]);

      t.clock.advance(5 * 60_000);
      expect((await t.as(token).get('/api/v2/customers')).status).toBe(200);
      expect((await cli(t.ctx, 'tokens', 'list', '--account', 'Listed')).out).toEqual([
        `${prefix}  created 2026-11-21 11:00:00  last used 2026-11-21 11:05:00  active`,
      ]);

      expect((await cli(t.ctx, 'tokens', 'revoke', prefix)).code).toBe(0);
      expect((await cli(t.ctx, 'tokens', 'list', '--account', 'Listed')).out).toEqual([
        `${prefix}  created 2026-11-21 11:00:00  last used 2026-11-21 11:05:00  revoked 2026-11-21 11:05:00`,
      ]);
    });

    it('When the account does not exist, then it fails with one line and exit code 1', async () => {
      expect(await cli(t.ctx, 'tokens', 'list', '--account', 'Nobody')).toEqual({
        code: 1,
        out: [],
        err: ['error: No account named "Nobody"'],
      });
    });
  });

  describe('tokens revoke', () => {
    it('When a token is revoked, then the API answers 401 to it while other tokens keep working', async () => {
      const revoked = lastLine((await cli(t.ctx, 'tokens', 'create', '--account', 'Revoker')).out);
      const kept = lastLine((await cli(t.ctx, 'tokens', 'create', '--account', 'Revoker')).out);
      const prefix = revoked.slice(0, TOKEN_DISPLAY_LENGTH);
      expect(await cli(t.ctx, 'tokens', 'revoke', prefix)).toEqual({ code: 0, out: [`Revoked token ${prefix}`], err: [] });
      const res = await request(t.app).get('/api/v2/customers').set('Authorization', `Bearer ${revoked}`);
      expect(res.status).toBe(401);
      expect((await t.as(kept).get('/api/v2/customers')).status).toBe(200);
    });

    it('When the prefix is unknown, then it prints one clear error line on stderr and exits with 1', async () => {
      expect(await cli(t.ctx, 'tokens', 'revoke', 'rps_unknown1')).toEqual({
        code: 1,
        out: [],
        err: ['error: No token with prefix "rps_unknown1"'],
      });
    });

    it('When the token was already revoked, then it says so and exits with 1', async () => {
      const token = lastLine((await cli(t.ctx, 'tokens', 'create', '--account', 'Twice')).out);
      const prefix = token.slice(0, TOKEN_DISPLAY_LENGTH);
      await cli(t.ctx, 'tokens', 'revoke', prefix);
      expect(await cli(t.ctx, 'tokens', 'revoke', prefix)).toEqual({
        code: 1,
        out: [],
        err: [`error: Token ${prefix} was already revoked`],
      });
    });
  });
});
