import type { Command } from 'commander';
import { z } from 'zod';
import type { AppContext } from '../context';
import { isValidCreditorId, normalizeCreditorId } from '../modules/accounts/creditorId';
import {
  DEFAULT_MAX_PAUSE_DAYS,
  isPortalAction,
  MAX_PAUSE_DAYS_LIMIT,
  PORTAL_ACTIONS,
  storedAllowedActions,
  type PortalAction,
} from '../modules/accounts/portalSettings';
import { setPortalSettings, setProfile, type PortalChanges, type ProfileChanges } from '../modules/accounts/service';
import { CliUsageError, type CliIo } from './io';

const EMAIL = z.string().max(191).pipe(z.email());

interface ProfileOptions {
  account: string;
  displayName?: string;
  contactEmail?: string;
  creditorId?: string;
  none?: boolean;
}

/** Each option given is set; "" clears it. `--none` clears the display name (kept from before). */
function profileChanges(options: ProfileOptions): ProfileChanges {
  const changes: ProfileChanges = {};
  if (options.none && options.displayName !== undefined) throw new CliUsageError('Pass either --display-name <text> or --none');
  if (options.none) changes.display_name = null;
  if (options.displayName !== undefined) {
    const displayName = options.displayName.trim() || null;
    if (displayName !== null && displayName.length > 191) throw new CliUsageError('A display name is at most 191 characters');
    changes.display_name = displayName;
  }
  if (options.contactEmail !== undefined) {
    const email = options.contactEmail.trim() || null;
    if (email !== null && !EMAIL.safeParse(email).success) throw new CliUsageError('The contact e-mail is not a valid e-mail address');
    changes.contact_email = email;
  }
  if (options.creditorId !== undefined) {
    const creditorId = normalizeCreditorId(options.creditorId) || null;
    if (creditorId !== null && !isValidCreditorId(creditorId)) {
      throw new CliUsageError(
        'A SEPA creditor id is a country code, 2 check digits, a 3-character business code and the national id ' +
          '(e.g. DE98ZZZ09999999999), with valid check digits',
      );
    }
    changes.creditor_id = creditorId;
  }
  if (!Object.keys(changes).length) {
    throw new CliUsageError('Pass at least one of --display-name <text>, --contact-email <address>, --creditor-id <id>, or --none');
  }
  return changes;
}

function profileLines(account: string, changes: ProfileChanges): string[] {
  const lines: string[] = [];
  if (changes.display_name !== undefined) {
    lines.push(
      changes.display_name === null
        ? `Account "${account}" shows its own name to buyers`
        : `Account "${account}" shows "${changes.display_name}" to buyers`,
    );
  }
  if (changes.contact_email !== undefined) {
    lines.push(
      changes.contact_email === null
        ? `Account "${account}" shows no contact e-mail`
        : `Account "${account}" shows contact e-mail ${changes.contact_email}`,
    );
  }
  if (changes.creditor_id !== undefined) {
    lines.push(
      changes.creditor_id === null
        ? `Account "${account}" names no creditor id`
        : `Account "${account}" names creditor id ${changes.creditor_id} in pre-notifications`,
    );
  }
  return lines;
}

/** `--allow pause,skip` as a set; `none` for the empty one. */
function allowedActions(text: string): ReadonlySet<PortalAction> {
  const words = text
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter(Boolean);
  if (words.length === 1 && words[0] === 'none') return new Set();
  const unknown = words.filter((word) => !isPortalAction(word));
  if (!words.length || unknown.length) {
    throw new CliUsageError(`--allow takes a comma-separated list of ${PORTAL_ACTIONS.join(', ')}, or none`);
  }
  return new Set(words.filter(isPortalAction));
}

export function registerProfileCommands(accounts: Command, ctx: AppContext, io: CliIo): void {
  accounts
    .command('set-profile')
    .description('what buyers are told about the merchant on payment pages, in the portal and in e-mails')
    .requiredOption('--account <name>', 'account name')
    .option('--display-name <text>', 'name shown to buyers, at most 191 characters (default: the account name); "" clears it')
    .option('--contact-email <address>', 'e-mail address customers can write to; "" clears it')
    .option('--creditor-id <id>', 'SEPA creditor identifier named in direct-debit pre-notifications; "" clears it')
    .option('--none', 'show the account name again (clears --display-name)')
    .action(async (options: ProfileOptions) => {
      const changes = profileChanges(options);
      await setProfile(ctx.db, ctx.clock, options.account, changes);
      for (const line of profileLines(options.account, changes)) io.out(line);
    });

  accounts
    .command('set-portal')
    .description('what customers can do in the self-service portal (all actions allowed by default)')
    .requiredOption('--account <name>', 'account name')
    .option('--allow <actions>', `comma-separated: ${PORTAL_ACTIONS.join(', ')}; or none`)
    .option('--max-pause-days <n>', `longest pause a customer can choose, 1 to ${MAX_PAUSE_DAYS_LIMIT} (default ${DEFAULT_MAX_PAUSE_DAYS})`)
    .option(
      '--mails <who>',
      'who mails customers about cancellations, pauses, skips and payment method changes: service (default) or store (the plugin)',
    )
    .action(async (options: { account: string; allow?: string; maxPauseDays?: string; mails?: string }) => {
      const changes: PortalChanges = {};
      const lines: string[] = [];
      if (options.allow !== undefined) {
        const allowed = allowedActions(options.allow);
        changes.portal_allowed_actions = storedAllowedActions(allowed);
        const list = PORTAL_ACTIONS.filter((action) => allowed.has(action));
        lines.push(`Account "${options.account}" lets customers: ${list.length ? list.join(', ') : 'nothing'}`);
      }
      if (options.maxPauseDays !== undefined) {
        const days = Number(options.maxPauseDays);
        if (!/^\d+$/.test(options.maxPauseDays.trim()) || days < 1 || days > MAX_PAUSE_DAYS_LIMIT) {
          throw new CliUsageError(`--max-pause-days is a whole number of days from 1 to ${MAX_PAUSE_DAYS_LIMIT}`);
        }
        changes.portal_max_pause_days = days === DEFAULT_MAX_PAUSE_DAYS ? null : days;
        lines.push(`Account "${options.account}" allows pauses of at most ${days} days`);
      }
      if (options.mails !== undefined) {
        const who = options.mails.trim();
        if (who !== 'service' && who !== 'store') throw new CliUsageError('--mails is service or store');
        changes.portal_mails = who === 'store' ? 'store' : null;
        lines.push(
          who === 'store'
            ? `Account "${options.account}" leaves subscription mails to its store's plugin (the service mails when no plugin is connected)`
            : `Account "${options.account}" mails customers about their subscriptions itself`,
        );
      }
      if (!lines.length) throw new CliUsageError('Pass --allow <actions>, --max-pause-days <n> and/or --mails <service|store>');
      await setPortalSettings(ctx.db, ctx.clock, options.account, changes);
      for (const line of lines) io.out(line);
    });
}
