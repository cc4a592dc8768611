import type { Knex } from 'knex';
import type { PaymentRow } from '../payments/repository';
import type { LinkType, PaymentLinkRow } from './repository';

/**
 * The link types whose fulfilment a module above links carries out: a `mandate` link's new mandate
 * takes over the customer's subscriptions (the takeovers module). Links fulfil the others themselves.
 */
export type HookedLinkType = Extract<LinkType, 'mandate'>;

/**
 * Runs in the settle transaction, once per link: after the link's fulfilment row was taken, before the
 * link is marked paid, so what it writes commits with the payment's status or not at all. It must only
 * write to the database: calls to the outside world are queued and made after the commit.
 */
export type LinkTypeFulfilment = (trx: Knex.Transaction, link: PaymentLinkRow, payment: PaymentRow) => Promise<void>;

/**
 * What a paid link of a hooked type does, as SettlementHooks is for payments: the module that owns the
 * type registers its one handler at start (bootstrap.ts), and links name none of them. A paid link of a
 * hooked type with no handler throws: money was taken for it, so the settlement fails and is tried
 * again rather than marking the link paid with nothing done.
 */
export class LinkFulfilmentHooks {
  private readonly handlers = new Map<LinkType, LinkTypeFulfilment>();

  /** `handle` fulfils every paid link of `type`; a second handler for one type is a wiring mistake and throws. */
  on(type: HookedLinkType, handle: LinkTypeFulfilment): void {
    if (this.handlers.has(type)) throw new Error(`a fulfilment of ${type} links is registered twice`);
    this.handlers.set(type, handle);
  }

  /** Fulfils the paid link through its type's handler; throws when none is registered. */
  async fulfil(trx: Knex.Transaction, link: PaymentLinkRow, payment: PaymentRow): Promise<void> {
    const handle = this.handlers.get(link.type);
    if (!handle) throw new Error(`no fulfilment is registered for ${link.type} links: link ${link.id} was paid and cannot be fulfilled`);
    await handle(trx, link, payment);
  }
}
