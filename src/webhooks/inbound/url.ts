import type { Account } from '../../modules/accounts/account';

/** Where the provider reports payment changes for this account; the opaque ref, never the id. */
export function providerWebhookUrl(publicUrl: string, account: Pick<Account, 'public_ref'>): string {
  return `${publicUrl}/webhooks/mollie?account=${encodeURIComponent(account.public_ref)}`;
}
