import type { Command } from 'commander';
import { migrateLatest } from '../db/migrate';
import type { CliEnvironment } from './environment';
import type { CliIo } from './io';

export function registerMigrateCommand(program: Command, env: CliEnvironment, io: CliIo): void {
  program
    .command('migrate')
    .description('bring the database schema up to date and print the migrations that ran')
    .action(async () => {
      const ran = [...(env.migratedOnOpen ?? []), ...(await migrateLatest(env.ctx.db))];
      if (!ran.length) io.out('Nothing to migrate: the database is up to date');
      for (const name of ran) io.out(`Migrated ${name}`);
    });
}
