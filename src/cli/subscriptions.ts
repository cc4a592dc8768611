import type { Command } from 'commander';
import type { AppContext } from '../context';
import { requireAccount } from '../modules/accounts/service';
import { presentSubscription, presentSubscriptions } from '../modules/subscriptions/presenter';
import { SUBSCRIPTION_STATUSES } from '../modules/subscriptions/repository';
import { getSubscription, listSubscriptions } from '../modules/subscriptions/service';
import type { CliIo } from './io';
import { listCommand, pageRequestOf, printPage, printRecord, showOf, statusFilter, type ListOptions } from './listing';

/** `cli subscriptions list|show`: an account's subscriptions as the API gives them, on the operator's terminal. */
export function registerSubscriptionCommands(program: Command, ctx: AppContext, io: CliIo): void {
  const subscriptions = program.command('subscriptions').description("an account's subscriptions");

  listCommand(subscriptions, 'oldest first: id, status, next payment and amount, customer e-mail, name')
    .option('--customer <id>', 'only subscriptions of this customer')
    .option('--status <status>', `only ${SUBSCRIPTION_STATUSES.join(', ')}`)
    .action(async (options: ListOptions & { customer?: string; status?: string }) => {
      const account = await requireAccount(ctx.db, options.account);
      const request = pageRequestOf(options);
      const filters = { customer_id: options.customer, status: statusFilter(options.status, SUBSCRIPTION_STATUSES) };
      const page = await listSubscriptions(ctx, account, request, filters);
      // One presenting of the whole page: its rules and customers in a few queries, as the API does.
      const presented = await presentSubscriptions(ctx.db, ctx.config, account.id, page.items);
      printPage(io, { items: presented, total: page.total }, request, 'subscriptions', (subscription) => {
        const next = subscription.next_payment_at
          ? `next ${subscription.next_payment_at} ${subscription.next_amount ?? '-'}`
          : 'no next payment';
        return `${subscription.id}  ${subscription.status}  ${next}  ${subscription.customer.email}  ${subscription.name}`;
      });
    });

  subscriptions
    .command('show <id>')
    .description('one subscription with its rules and customer, as GET /api/v2/subscriptions/{id} answers (JSON)')
    .requiredOption('--account <name>', 'account name')
    .action(async (id: string, options: { account: string }) => {
      const record = await showOf(ctx, { account: options.account, record: 'subscription', id }, async (account) =>
        presentSubscription(ctx, account.id, await getSubscription(ctx, account, id)),
      );
      printRecord(io, record);
    });
}
