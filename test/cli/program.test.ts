import { migrationSource } from '../../migrations';
import { runCli } from '../../src/cli/run';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { cli } from './runInMemory';

describe.each(TEST_DATABASES)('cli program on %s', (kind) => {
  const t = useTestApp(kind);

  it('When --help is asked, then the commands are listed on stdout and the exit code is 0', async () => {
    const result = await cli(t.ctx, '--help');
    expect(result.code).toBe(0);
    expect(result.err).toEqual([]);
    expect(result.out.join('\n')).toMatch(/tokens[\s\S]*accounts[\s\S]*migrate/);
  });

  it('When the command is unknown, then it prints one error line, with a suggestion, and exits with 1', async () => {
    expect(await cli(t.ctx, 'tokens', 'lst')).toEqual({ code: 1, out: [], err: ["error: unknown command 'lst' (Did you mean list?)"] });
  });

  it('When the database is up to date, then `migrate` says there is nothing to migrate', async () => {
    expect(await cli(t.ctx, 'migrate')).toEqual({ code: 0, out: ['Nothing to migrate: the database is up to date'], err: [] });
  });

  it('When migrations already ran while the database was opened, then `migrate` reports them', async () => {
    const out: string[] = [];
    const code = await runCli(
      ['migrate'],
      { out: (line) => out.push(line), err: () => undefined, readStdin: async () => '' },
      { ctx: t.ctx, migratedOnOpen: ['20261121_001_accounts_and_tokens'] },
    );
    expect(code).toBe(0);
    expect(out).toEqual(['Migrated 20261121_001_accounts_and_tokens']);
  });
});

describe.each(TEST_DATABASES)('cli migrate and failures on a database of its own on %s', (kind) => {
  const t = useTestApp(kind);

  it('When the schema is behind, then `migrate` runs every pending migration and prints each one', async () => {
    const [, rolledBack] = (await t.ctx.db.migrate.rollback({ migrationSource }, true)) as [number, string[]];
    expect(rolledBack.length).toBeGreaterThan(0);
    const result = await cli(t.ctx, 'migrate');
    expect(result.code).toBe(0);
    expect(result.out).toEqual([...rolledBack].sort().map((name) => `Migrated ${name}`));
    expect((await cli(t.ctx, 'tokens', 'create', '--account', 'After Migrate')).code).toBe(0);
  });

  it('When the database fails, then the user sees one error line without a stack and exit code 1', async () => {
    await t.ctx.db.destroy();
    const result = await cli(t.ctx, 'accounts', 'list');
    expect(result.code).toBe(1);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/^error: the command failed unexpectedly: /);
    expect(result.err[0]).not.toMatch(/\n|\s+at /);
  });
});
