/** Where running subscriptions can be imported from (a subscription's `source`). */
export const IMPORT_SOURCES = ['woocommerce-subscriptions', 'mollie-subscriptions', 'csv'] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];
