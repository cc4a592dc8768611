import type { Command } from 'commander';
import type { AppContext } from '../context';
import {
  choosableProviders,
  chosenProvider,
  clearProviderSettings,
  setProviderSettings,
  withoutOwnSettingsText,
} from '../modules/accounts/providerSettings';
import { optionName, type ProviderCliOption, type ProviderOptionValues } from '../providers/adapter';
import { providerAdapters } from '../providers';
import { CliUsageError, type CliIo } from './io';

/** `--… -`: the value is read from standard input, as `-` means for many tools. */
const FROM_STDIN = '-';

/** The first line of standard input, trimmed; a key typed at a prompt or piped from a file or secret store. */
async function valueFromStdin(io: CliIo, stdin: NonNullable<ProviderCliOption['fromStdin']>): Promise<string> {
  const text = await io.readStdin(stdin.prompt);
  const value = (text.split(/\r?\n/, 1)[0] ?? '').trim();
  if (!value) throw new CliUsageError(stdin.missing);
  return value;
}

/** Every provider's options once (two providers may share one, such as a profile id). */
function providerOptions(): ProviderCliOption[] {
  const seen = new Map<string, ProviderCliOption>();
  for (const adapter of choosableProviders()) {
    for (const option of adapter.accountSettings?.options ?? [])
      if (!seen.has(optionName(option.flags))) seen.set(optionName(option.flags), option);
  }
  return [...seen.values()];
}

/**
 * `accounts set-provider`: the options are those of the providers' settings forms; the first option
 * of a form chooses its provider (`--<provider>-api-key`), the others go with it.
 */
export function registerSetProvider(accounts: Command, ctx: AppContext, io: CliIo): void {
  const options = providerOptions();
  const choosing = choosableProviders().flatMap((adapter) => adapter.accountSettings?.options[0].flags ?? []);
  const fallbacks = providerAdapters().flatMap((adapter) => adapter.fallbackText ?? []);
  const command = accounts
    .command('set-provider')
    .description(
      `give an account its own payment provider credentials (stored encrypted with APP_KEY), or --none to use ` +
        `${fallbacks.join(', else ')} again`,
    )
    .requiredOption('--account <name>', 'account name');
  for (const option of options) command.option(option.flags, option.description);
  command
    .option('--none', "remove the account's own provider credentials")
    .action(async (given: ProviderOptionValues & { account: string; none?: boolean }) => {
      const values: Record<string, string | boolean | null | undefined> = Object.fromEntries(
        options.map((option) => [optionName(option.flags), given[optionName(option.flags)]]),
      );
      const adapter = chosenProvider(values);
      if ((adapter === null) === (given.none === undefined)) throw new CliUsageError(`Pass either ${choosing.join(' or ')} or --none`);
      if (!adapter) {
        if (Object.values(values).some((value) => value !== undefined)) throw new CliUsageError('--none takes no other provider option');
        await clearProviderSettings(ctx, given.account);
        io.out(`Account "${given.account}" ${withoutOwnSettingsText()}`);
        return;
      }
      for (const option of adapter.accountSettings?.options ?? []) {
        const name = optionName(option.flags);
        if (option.fromStdin && values[name] === FROM_STDIN) values[name] = await valueFromStdin(io, option.fromStdin);
      }
      const { summary } = await setProviderSettings(ctx, given.account, values);
      io.out(`Account "${given.account}" uses ${summary}`);
    });
}
