import type { Command } from 'commander';
import type { AppContext } from '../context';
import { requireAccount } from '../modules/accounts/service';
import { presentCustomer } from '../modules/customers/presenter';
import { getCustomer, listCustomers } from '../modules/customers/service';
import type { CliIo } from './io';
import { listCommand, pageRequestOf, printPage, printRecord, showOf, type ListOptions } from './listing';

/** `cli customers list|show`: an account's customers as the API gives them, on the operator's terminal. */
export function registerCustomerCommands(program: Command, ctx: AppContext, io: CliIo): void {
  const customers = program.command('customers').description("an account's customers");

  listCommand(customers, 'oldest first: id, created, name, e-mail, provider customer id')
    .option('--email <address>', 'only customers with this e-mail address')
    .action(async (options: ListOptions & { email?: string }) => {
      const account = await requireAccount(ctx.db, options.account);
      const request = pageRequestOf(options);
      const page = await listCustomers(ctx, account, request, options.email);
      printPage(io, page, request, 'customers', (row) => {
        const customer = presentCustomer(row, ctx.config);
        const name = [customer.first_name, customer.last_name].filter(Boolean).join(' ');
        return `${customer.id}  ${customer.created_at}  ${name}  ${customer.email}  ${customer.provider_customer_id ?? '-'}`;
      });
    });

  customers
    .command('show <id>')
    .description('one customer, as GET /api/v2/customers/{id} answers (JSON)')
    .requiredOption('--account <name>', 'account name')
    .action(async (id: string, options: { account: string }) => {
      const row = await showOf(ctx, { account: options.account, record: 'customer', id }, (account) => getCustomer(ctx, account, id));
      printRecord(io, presentCustomer(row, ctx.config));
    });
}
