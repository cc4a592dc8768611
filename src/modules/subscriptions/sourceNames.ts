/**
 * Where running subscriptions can be imported from (a subscription's `source`): a subscription names
 * its source, so the names are the subscription's vocabulary; the imports module brings them in.
 */
export const IMPORT_SOURCES = ['woocommerce-subscriptions', 'mollie-subscriptions', 'csv'] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];
