/**
 * Text placed into HTML: every value from a merchant, buyer or database goes through this. A leaf
 * that imports nothing, so the pages, the mails and the sandbox's checkout page share one escape.
 */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
