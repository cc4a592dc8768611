import type { AppContext } from '../context';
import { connectMoneybird, MoneybirdConnectionError } from '../bookkeeping/moneybird/connection';
import { requireAccount } from '../modules/accounts/service';
import { CliUsageError, type CliIo } from './io';

/** Moneybird administration ids are numbers (long ones: kept as text). */
const ADMINISTRATION_ID = /^\d{1,30}$/;

/** `accounts set-bookkeeping moneybird`: checks the token and administration at Moneybird, then stores them. */
export async function connectMoneybirdFromCli(
  ctx: AppContext,
  io: CliIo,
  options: { account: string; administration?: string; token?: string; sendInvoices?: boolean },
): Promise<void> {
  const administrationId = options.administration?.trim() ?? '';
  if (!ADMINISTRATION_ID.test(administrationId)) throw new CliUsageError("Pass --administration <id>: the number in Moneybird's address");
  if (options.token === undefined) throw new CliUsageError('Pass --token - and give the Moneybird API token on standard input');
  const token =
    options.token === '-' ? ((await io.readStdin('Moneybird API token: ')).split(/\r?\n/, 1)[0] ?? '').trim() : options.token.trim();
  if (!token) throw new CliUsageError('No Moneybird API token was given on standard input');
  const account = await requireAccount(ctx.db, options.account);
  try {
    const { administrationName } = await connectMoneybird(ctx, account.id, {
      administrationId,
      token,
      sendInvoices: options.sendInvoices === true,
    });
    io.out(
      `Account "${account.name}" uses Moneybird administration ${administrationId} ("${administrationName}"); invoices are ` +
        `${options.sendInvoices ? 'sent to customers' : 'left as drafts'}; subscriptions now need workflow_id and docstyle_id`,
    );
  } catch (error) {
    if (error instanceof MoneybirdConnectionError) throw new CliUsageError(error.message);
    throw error;
  }
}
