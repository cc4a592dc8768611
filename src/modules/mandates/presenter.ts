import { formatNullableDate } from '../../time';
import type { MandateRow } from './repository';
import type { MandateResponse } from './schemas';

/** Mandate as the API shows it (docs/api.md, Mandate): the details of its own method only. */
export function presentMandate(row: MandateRow): MandateResponse {
  const common = {
    id: row.id,
    status: row.status,
    custom_mandate_reference: row.mandate_reference,
    signature_date: formatNullableDate(row.signature_date),
  };
  if (row.method === 'creditcard') {
    return {
      ...common,
      method: 'creditcard',
      details: {
        card_holder: row.card_holder,
        card_number: row.card_number,
        card_expiry_date: formatNullableDate(row.card_expiry_date),
        card_label: row.card_label,
        card_fingerprint: row.card_fingerprint,
      },
    };
  }
  return {
    ...common,
    method: 'directdebit',
    details: { consumer_name: row.consumer_name, consumer_account: row.consumer_account, consumer_bic: row.consumer_bic },
  };
}
