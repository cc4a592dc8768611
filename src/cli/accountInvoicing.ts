import type { Command } from 'commander';
import type { AppContext } from '../context';
import { setInvoiceSettings, type InvoiceSettingsChanges } from '../modules/invoices/settingsRepository';
import { CliUsageError, type CliIo } from './io';

interface InvoicingOptions {
  account: string;
  prefix?: string;
  next?: string;
  vat?: string;
  oss?: string;
  mail?: string;
  links?: string;
  orders?: string;
  address?: string;
  postalCode?: string;
  city?: string;
  country?: string;
  vatNumber?: string;
  cocNumber?: string;
}

const onOff = (value: string, option: string): boolean => {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new CliUsageError(`${option} is on or off`);
};

const text = (value: string, max: number, option: string): string | null => {
  const trimmed = value.trim();
  if (trimmed.length > max) throw new CliUsageError(`${option} is at most ${max} characters`);
  return trimmed === '' ? null : trimmed;
};

/** What `set-invoicing` changes; an option left out keeps its value. */
export function invoicingChanges(options: InvoicingOptions): InvoiceSettingsChanges {
  const changes: InvoiceSettingsChanges = {};
  if (options.prefix !== undefined) {
    if (!/^[\w./-]{0,32}$/.test(options.prefix))
      throw new CliUsageError('--prefix is at most 32 letters, digits, dots, slashes, dashes or underscores');
    changes.prefix = options.prefix;
  }
  if (options.next !== undefined) {
    if (!/^[1-9]\d{0,14}$/.test(options.next)) throw new CliUsageError('--next is a whole number from 1');
    changes.next_number = Number(options.next);
  }
  if (options.vat !== undefined) {
    if (options.vat !== 'none' && !/^\d{1,2}(\.\d{1,2})?$/.test(options.vat))
      throw new CliUsageError('--vat is a percentage such as 21 or 5.5, or none');
    changes.default_vat = options.vat === 'none' ? null : options.vat;
  }
  if (options.oss !== undefined) changes.oss = onOff(options.oss, '--oss');
  if (options.mail !== undefined) changes.mail_when_paid = onOff(options.mail, '--mail');
  if (options.links !== undefined) changes.invoice_links = onOff(options.links, '--links');
  if (options.orders !== undefined) changes.invoice_orders = onOff(options.orders, '--orders');
  if (options.address !== undefined) changes.seller_address = text(options.address, 191, '--address');
  if (options.postalCode !== undefined) changes.seller_postal_code = text(options.postalCode, 32, '--postal-code');
  if (options.city !== undefined) changes.seller_city = text(options.city, 191, '--city');
  if (options.country !== undefined) {
    if (!/^[A-Za-z]{2}$/.test(options.country)) throw new CliUsageError('--country is a two-letter country code');
    changes.seller_country = options.country.toUpperCase();
  }
  if (options.vatNumber !== undefined) changes.seller_vat_number = text(options.vatNumber, 32, '--vat-number');
  if (options.cocNumber !== undefined) changes.seller_coc_number = text(options.cocNumber, 32, '--coc-number');
  return changes;
}

export function registerInvoicingCommands(accounts: Command, ctx: AppContext, io: CliIo): void {
  accounts
    .command('set-invoicing')
    .description("set an account's invoices: numbering, default VAT rate, OSS, the seller's details")
    .requiredOption('--account <name>', 'account name')
    .option('--prefix <text>', 'put before every number, e.g. 2026-')
    .option('--next <n>', 'the number the next invoice or credit note gets; above any issued in the series')
    .option('--vat <percentage>', 'VAT rate of an invoice made from the amount charged (no invoice rules), or none')
    .option('--oss <on|off>', 'One Stop Shop: consumers in other EU countries pay their own standard rate')
    .option('--mail <on|off>', 'e-mail each invoice and credit note to the customer, its PDF attached')
    .option('--links <on|off>', 'invoice paid payment links too')
    .option('--orders <on|off>', 'invoice paid store orders too, with the lines the store invoiced')
    .option('--address <text>', "the seller's street address")
    .option('--postal-code <text>', "the seller's postal code")
    .option('--city <text>', "the seller's city")
    .option('--country <code>', "the seller's country (ISO code, e.g. NL)")
    .option('--vat-number <text>', "the seller's VAT number")
    .option('--coc-number <text>', "the seller's Chamber of Commerce (KvK) number, printed on its invoices; empty: none")
    .action(async (options: InvoicingOptions) => {
      const row = await setInvoiceSettings(ctx.db, ctx.clock, options.account, invoicingChanges(options));
      const line = (label: string, value: string) => io.out(`${`${label}:`.padEnd(16)}${value}`);
      line('Next number', `${row.prefix}${row.next_number}`);
      line('Default VAT', row.default_vat === null ? 'none' : `${row.default_vat} %`);
      line('OSS', row.oss ? 'on' : 'off');
      line('Mail', row.mail_when_paid ? 'on' : 'off');
      line('Links', row.invoice_links ? 'on' : 'off');
      line('Orders', row.invoice_orders ? 'on' : 'off');
    });
}
