import { STORE_SUBSCRIPTIONS_IMPORT } from '../../integrations';
import { PROVIDER_SUBSCRIPTIONS_IMPORT } from '../../providers';

/**
 * Where running subscriptions can be imported from (a subscription's `source`): the store's
 * subscriptions extension and the provider's own subscriptions, whose names their adapters declare
 * (stored values of the API), and a CSV file. A subscription names its source, so the names are the
 * subscription's vocabulary; the imports module brings them in.
 */
export const IMPORT_SOURCES = [STORE_SUBSCRIPTIONS_IMPORT.sourceName, PROVIDER_SUBSCRIPTIONS_IMPORT.sourceName, 'csv'] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];
