import type { Command } from 'commander';
import type { AppContext } from '../context';
import { NotFoundError, ValidationError } from '../errors';
import { requireAccount } from '../modules/accounts/service';
import { connectShopBody } from '../modules/store/schemas';
import { presentShop } from '../modules/store/presenter';
import { connectShop, disconnectShop, getShop, shopPortal } from '../modules/store/service';
import { CliUsageError, type CliIo } from './io';

/** One line per field: what the API would answer as a 422, for a person at a terminal. */
function asUsageError(error: unknown): never {
  if (error instanceof ValidationError) {
    const details = Object.entries(error.fields).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
    throw new CliUsageError([error.message, ...details].join('; '));
  }
  throw error;
}

function printShop(io: CliIo, shown: ReturnType<typeof presentShop>): void {
  const line = (label: string, value: string) => io.out(`${`${label}:`.padEnd(18)}${value}`);
  line('store', shown.url);
  line('status', shown.status);
  line('consumer key', shown.consumer_key);
  const { webhooks } = shown;
  line('webhooks', webhooks.state + (webhooks.error ? ` (${webhooks.error})` : ''));
  line('delivery url', webhooks.delivery_url);
  if (webhooks.last_ping_at) line('last ping', webhooks.last_ping_at);
  if (webhooks.state === 'not_reachable') {
    line('not reachable', webhooks.reason ?? '');
    io.out('No webhooks are kept in the store; the sync every 15 minutes keeps products and orders current.');
  }
  if (webhooks.in_store.length > 0) {
    line('in the store', webhooks.in_store.map((hook) => `${hook.topic} ${hook.status}`).join(', '));
    line('checked at', webhooks.last_checked_at ?? '');
  }
}

/**
 * The CLI hands PUBLIC_URL to the store as the webhooks' address, so it must be the server's own:
 * the development default (http://localhost:PORT) is where the CLI runs, not where the server is.
 */
function requireExplicitPublicUrl(ctx: AppContext): void {
  if (ctx.config.publicUrlSet) return;
  throw new CliUsageError(
    `PUBLIC_URL is not set: the store's webhooks would go to ${ctx.config.publicUrl}. Run this command with the environment ` +
      'the server runs with (at least its PUBLIC_URL, e.g. PUBLIC_URL=https://pay.example.com npm run cli -- shops connect …)',
  );
}

export function registerShopCommands(program: Command, ctx: AppContext, io: CliIo): void {
  const shops = program.command('shops').description("the account's WooCommerce store");

  shops
    .command('connect')
    .description('connect a store: its REST keys are verified with one call and our webhooks registered')
    .requiredOption('--account <name>', 'account name')
    .requiredOption('--url <url>', 'the store address, e.g. https://shop.example')
    .requiredOption('--key <ck_…>', 'WooCommerce REST consumer key (read/write)')
    .option('--secret <cs_…>', 'consumer secret; - or absent reads it from standard input, out of argv and shell history')
    .action(async (options: { account: string; url: string; key: string; secret?: string }) => {
      requireExplicitPublicUrl(ctx);
      const account = await requireAccount(ctx.db, options.account);
      const secret =
        options.secret && options.secret !== '-'
          ? options.secret
          : ((await io.readStdin('Consumer secret: ')).split(/\r?\n/, 1)[0] ?? '').trim();
      const body = connectShopBody.safeParse({ url: options.url, consumer_key: options.key, consumer_secret: secret });
      if (!body.success) throw new CliUsageError(body.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
      const row = await connectShop(ctx, account, body.data).catch(asUsageError);
      const shown = presentShop(ctx.config, account, row, await shopPortal(ctx, account));
      printShop(io, shown);
      if (shown.webhooks.state === 'registered') {
        io.out(`Webhooks registered at ${shown.webhooks.delivery_url} (PUBLIC_URL); the store's ping reached it.`);
      }
    });

  shops
    .command('disconnect')
    .description('remove our webhooks from the store and forget its keys (synced products and orders stay)')
    .requiredOption('--account <name>', 'account name')
    .action(async (options: { account: string }) => {
      const account = await requireAccount(ctx.db, options.account);
      await disconnectShop(ctx, account).catch((error: unknown) => {
        throw error instanceof NotFoundError ? new CliUsageError(`Account "${account.name}" has no connected store`) : error;
      });
      io.out(`Account "${account.name}" is no longer connected to its store`);
    });

  shops
    .command('show')
    .description("the account's store connection")
    .requiredOption('--account <name>', 'account name')
    .action(async (options: { account: string }) => {
      const account = await requireAccount(ctx.db, options.account);
      const shop = await getShop(ctx, account).catch((error: unknown) => {
        throw error instanceof NotFoundError
          ? new CliUsageError(`Account "${account.name}" has no store; connect one with shops connect`)
          : error;
      });
      printShop(io, presentShop(ctx.config, account, shop, await shopPortal(ctx, account)));
    });
}
