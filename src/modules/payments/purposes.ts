/**
 * What a payment is for. Every payment goes through one pipeline whatever it is for; the purpose
 * (and `purpose_id`: the link, charge, follow-up or order) tells the settle hook whom to tell.
 */
export const PAYMENT_PURPOSES = ['api', 'link', 'charge', 'follow-up', 'order'] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];
