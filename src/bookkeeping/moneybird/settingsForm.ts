import { BookkeepingSettingsError, type BookkeepingSettingsForm } from '../adapter';
import { connectMoneybird, MoneybirdConnectionError } from './connection';

/** Moneybird administration ids are numbers (long ones: kept as text). */
const ADMINISTRATION_ID = /^\d{1,30}$/;

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** `accounts set-bookkeeping moneybird`: checks the token and administration at Moneybird, then stores them. */
export const moneybirdSettingsForm: BookkeepingSettingsForm = {
  options: [
    { flags: '--administration <id>', description: 'Moneybird administration id' },
    { flags: '--token <token>', description: 'Moneybird API token; `-` reads it from standard input (keeps it out of the shell history)' },
    { flags: '--send-invoices', description: 'Moneybird: send each invoice to the customer (default: leave it as a draft)' },
  ],
  async connect(ctx, input) {
    const administrationId = text(input.values.administration)?.trim() ?? '';
    if (!ADMINISTRATION_ID.test(administrationId))
      throw new BookkeepingSettingsError("Pass --administration <id>: the number in Moneybird's address");
    const given = text(input.values.token);
    if (given === undefined) throw new BookkeepingSettingsError('Pass --token - and give the Moneybird API token on standard input');
    const token = given === '-' ? ((await input.readStdin('Moneybird API token: ')).split(/\r?\n/, 1)[0] ?? '').trim() : given.trim();
    if (!token) throw new BookkeepingSettingsError('No Moneybird API token was given on standard input');
    const account = await input.account();
    const sendInvoices = input.values.sendInvoices === true;
    try {
      const { administrationName } = await connectMoneybird(ctx, account.id, { administrationId, token, sendInvoices }, (store) =>
        input.saveConnection(store),
      );
      return (
        `Account "${account.name}" uses Moneybird administration ${administrationId} ("${administrationName}"); invoices are ` +
        `${sendInvoices ? 'sent to customers' : 'left as drafts'}; subscriptions now need workflow_id and docstyle_id`
      );
    } catch (error) {
      if (error instanceof MoneybirdConnectionError) throw new BookkeepingSettingsError(error.message);
      throw error;
    }
  },
};
