import type { Command } from 'commander';
import type { AppContext } from '../context';
import { requireAccount } from '../modules/accounts/service';
import { presentPaymentDetail, presentPaymentList } from '../modules/payments/presenter';
import { getPayment, listPayments } from '../modules/payments/service';
import { PAYMENT_ROW_STATUSES } from '../modules/payments/transitions';
import type { CliIo } from './io';
import { listCommand, pageRequestOf, printPage, printRecord, showOf, statusFilter, type ListOptions } from './listing';

/** `cli payments list|show`: an account's payments as the API gives them, on the operator's terminal. */
export function registerPaymentCommands(program: Command, ctx: AppContext, io: CliIo): void {
  const payments = program.command('payments').description("an account's payments");

  listCommand(payments, 'oldest first: id, created, status, amount and currency, sequence type, customer, description')
    .option('--customer <id>', 'only payments of this customer')
    .option('--subscription <id>', 'only payments of this subscription')
    .option('--status <status>', `only ${PAYMENT_ROW_STATUSES.join(', ')}`)
    .action(async (options: ListOptions & { customer?: string; subscription?: string; status?: string }) => {
      const account = await requireAccount(ctx.db, options.account);
      const request = pageRequestOf(options);
      const filters = {
        customer_id: options.customer,
        subscription_id: options.subscription,
        status: statusFilter(options.status, PAYMENT_ROW_STATUSES),
      };
      const page = await listPayments(ctx, account, request, filters);
      printPage(io, { items: presentPaymentList(page.items, ctx.config), total: page.total }, request, 'payments', (payment) =>
        [
          payment.id,
          payment.created_at,
          payment.status,
          `${payment.amount} ${payment.currency}`,
          payment.sequence_type,
          payment.customer_id ?? '-',
          payment.description,
        ].join('  '),
      );
    });

  payments
    .command('show <id>')
    .description('one payment with its status history and webhook deliveries, as GET /api/v2/payments/{id} answers (JSON)')
    .requiredOption('--account <name>', 'account name')
    .action(async (id: string, options: { account: string }) => {
      const { row, history, deliveries } = await showOf(ctx, { account: options.account, record: 'payment', id }, (account) =>
        getPayment(ctx, account, id),
      );
      printRecord(io, presentPaymentDetail(row, history, deliveries, ctx.config));
    });
}
