/*
 * What an account chooses for the follow-up of a failed payment (its follow_up_* columns, set by the
 * CLI). The follow-ups module works with these choices and each follow-up records its type; they are
 * named here, with the account that keeps them, so the accounts module needs nothing above it.
 */

/** How a failed payment is followed up: retried, sent a payment link, or both in turn. */
export const FOLLOW_UP_TYPES = ['retry', 'link', 'both'] as const;
export type FollowUpType = (typeof FOLLOW_UP_TYPES)[number];

/** What happens to the subscription when its follow-up fails. */
export const ON_FAILURE_ACTIONS = ['pause', 'cancel', 'keep'] as const;
export type OnFailureAction = (typeof ON_FAILURE_ACTIONS)[number];
