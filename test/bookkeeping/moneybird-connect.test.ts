import { cli, cliWithStdin } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { startMoneybirdFake, type MoneybirdFake } from '../support/moneybirdFake';
import { useTestApp } from '../support/testApp';
import { connectToFake, subscribeWithStyle } from '../support/moneybird';
import { refuseUpdatesOf } from '../support/rowWriteFault';

describe.each(TEST_DATABASES)('connecting an account to Moneybird, on %s', (kind) => {
  let fake: MoneybirdFake;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    fake = await startMoneybirdFake();
    env.MONEYBIRD_API_URL = fake.url;
  });
  const t = useTestApp(kind, { env });
  afterAll(() => fake.close());

  const connect = (name: string, token: string, administration = fake.administrationId) =>
    cliWithStdin(
      t.ctx,
      `${token}\n`,
      'accounts',
      'set-bookkeeping',
      'moneybird',
      '--account',
      name,
      '--administration',
      administration,
      '--token',
      '-',
    );

  it('When the token and administration are right, then the account uses Moneybird and the token is stored sealed', async () => {
    const name = `Moneybird ${Math.random().toString(36).slice(2, 8)}`;
    const { accountId } = await t.newAccount(name);
    const result = await connect(name, fake.token);
    expect(result.code).toBe(0);
    expect(result.out.join('\n')).toContain(
      `uses Moneybird administration ${fake.administrationId} ("Koffieclub B.V."); invoices are left as drafts`,
    );
    expect((await t.ctx.db('accounts').where({ id: accountId }).first()).bookkeeping_system).toBe('moneybird');
    const row = await t.ctx.db('moneybird_connections').where({ account_id: accountId }).first();
    expect(row.administration_id).toBe(fake.administrationId);
    expect(row.token_encrypted).toMatch(/^v1:/);
    expect(row.token_encrypted).not.toContain(fake.token);
    expect(t.logs.lines.join('\n')).not.toContain(fake.token);
    expect((await cli(t.ctx, 'accounts', 'show', '--account', name)).out.join('\n')).not.toContain(fake.token);
  });

  it('When the token is refused or the administration is not its own, then nothing is stored and the error says which', async () => {
    const name = `Moneybird ${Math.random().toString(36).slice(2, 8)}`;
    const { accountId } = await t.newAccount(name);
    const wrongToken = await connect(name, 'not-the-token');
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.err.join('\n')).toContain('Moneybird refused the token');
    const wrongAdministration = await connect(name, fake.token, '999');
    expect(wrongAdministration.code).toBe(1);
    expect(wrongAdministration.err.join('\n')).toContain(
      `The token has no access to Moneybird administration 999 (it may use: ${fake.administrationId})`,
    );
    expect((await t.ctx.db('accounts').where({ id: accountId }).first()).bookkeeping_system).toBeNull();
    expect(await t.ctx.db('moneybird_connections').where({ account_id: accountId })).toHaveLength(0);
    const noToken = await cliWithStdin(
      t.ctx,
      '\n',
      'accounts',
      'set-bookkeeping',
      'moneybird',
      '--account',
      name,
      '--administration',
      '1',
      '--token',
      '-',
    );
    expect(noToken.err.join('\n')).toContain('No Moneybird API token was given on standard input');
  });

  it('When the account cannot be made to name Moneybird, then the connection is not stored either: one transaction', async () => {
    const name = `Moneybird ${Math.random().toString(36).slice(2, 8)}`;
    const { accountId } = await t.newAccount(name);
    const undo = await refuseUpdatesOf(t.ctx.db, kind, 'accounts', accountId);
    try {
      const result = await connect(name, fake.token);
      expect(result.code).toBe(1);
      expect(result.err.join('\n')).toContain('row locked');
    } finally {
      await undo();
    }
    expect((await t.ctx.db('accounts').where({ id: accountId }).first()).bookkeeping_system).toBeNull();
    expect(await t.ctx.db('moneybird_connections').where({ account_id: accountId })).toHaveLength(0);
  });

  it('When --none follows, then the connection is removed; --system still names another system', async () => {
    const name = `Moneybird ${Math.random().toString(36).slice(2, 8)}`;
    const { accountId } = await t.newAccount(name);
    await connectToFake(t, fake, name);
    expect((await cli(t.ctx, 'accounts', 'set-bookkeeping', '--account', name, '--none')).code).toBe(0);
    expect(await t.ctx.db('moneybird_connections').where({ account_id: accountId })).toHaveLength(0);
    expect((await cli(t.ctx, 'accounts', 'set-bookkeeping', '--account', name, '--system', 'exact')).code).toBe(0);
    expect((await t.ctx.db('accounts').where({ id: accountId }).first()).bookkeeping_system).toBe('exact');
  });

  it('When connected, then a subscription needs a workflow_id and docstyle_id the administration has, else a 422 naming it', async () => {
    const name = `Moneybird ${Math.random().toString(36).slice(2, 8)}`;
    const { token } = await t.newAccount(name);
    await connectToFake(t, fake, name);
    const missing = await subscribeWithStyle(t, token, {});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.fields as object).sort()).toEqual(['docstyle_id', 'workflow_id']);
    const unknown = await subscribeWithStyle(t, token, { workflow_id: '1', docstyle_id: fake.docstyleId });
    expect(unknown.status).toBe(422);
    expect(unknown.body.fields).toEqual({
      workflow_id: ['The selected workflow id is invalid: the Moneybird administration has no such workflow.'],
    });
    const estimateWorkflow = await subscribeWithStyle(t, token, { workflow_id: '800000000000000002', docstyle_id: '2' });
    expect(Object.keys(estimateWorkflow.body.fields as object).sort()).toEqual(['docstyle_id', 'workflow_id']);
    const known = await subscribeWithStyle(t, token, { workflow_id: fake.workflowId, docstyle_id: fake.docstyleId });
    expect(known.status).toBe(201);
    const stored = await t.ctx.db('subscriptions').where({ id: known.body.id }).first();
    expect(stored).toMatchObject({ workflow_id: fake.workflowId, docstyle_id: fake.docstyleId });
  });

  it('When Moneybird cannot be asked about the workflow, then the subscription is refused with a retryable 502, not made', async () => {
    const name = `Moneybird ${Math.random().toString(36).slice(2, 8)}`;
    const { token, accountId } = await t.newAccount(name);
    await connectToFake(t, fake, name);
    fake.arrange('GET', /workflows\.json$/, { kind: 'error', status: 503, body: { error: 'Service unavailable' } });
    const res = await subscribeWithStyle(t, token, { workflow_id: fake.workflowId, docstyle_id: fake.docstyleId });
    expect(res.status).toBe(502);
    expect(res.body.error).toContain('could not be checked at Moneybird');
    expect(await t.ctx.db('subscriptions').where({ account_id: accountId })).toHaveLength(0);
  });
});
