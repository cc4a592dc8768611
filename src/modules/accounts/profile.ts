import type { Knex } from 'knex';
import { accountsRepository } from './repository';
import { AccountError } from './service';

/** What customers are told about the merchant: in e-mails, on the pay page and in the portal. */
export interface MerchantProfile {
  /** The display name, or the account's own name when none is set. */
  displayName: string;
  contactEmail: string | null;
  creditorId: string | null;
}

export async function merchantProfileOf(db: Knex, accountId: string): Promise<MerchantProfile> {
  const row = await accountsRepository.profileOf(db, accountId);
  if (!row) throw new AccountError(`No account with id ${accountId}`);
  return { displayName: row.display_name ?? row.name, contactEmail: row.contact_email, creditorId: row.creditor_id };
}
