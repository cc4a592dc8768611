/** WooCommerce's `date_modified_gmt` (`2026-11-24T10:00:05`, GMT) as a stored date-time, or null when absent or unreadable. */
export function storeModifiedAt(dateModifiedGmt: string | null | undefined): string | null {
  if (!dateModifiedGmt || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(dateModifiedGmt)) return null;
  return dateModifiedGmt.slice(0, 19).replace('T', ' ');
}
