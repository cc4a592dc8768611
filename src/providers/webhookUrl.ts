/**
 * Where a provider reports payment changes for this account (`POST /webhooks/<provider>`, see
 * http/webhooks/providers.ts): the account's opaque reference, never its id.
 */
export function providerWebhookUrl(publicUrl: string, providerName: string, account: { public_ref: string }): string {
  return `${publicUrl}/webhooks/${encodeURIComponent(providerName)}?account=${encodeURIComponent(account.public_ref)}`;
}
