import type { Knex } from 'knex';
import type { PaymentLinkRow } from '../../src/modules/links/repository';
import { LinkFulfilmentHooks } from '../../src/modules/links/typeFulfilments';
import type { PaymentRow } from '../../src/modules/payments/repository';

const trx = {} as Knex.Transaction;
const mandateLink = { id: 'lnk_1', account_id: 'acc_1', type: 'mandate' } as PaymentLinkRow;
const payment = { id: 'pay_1', purpose: 'link', purpose_id: 'lnk_1' } as PaymentRow;

describe('link fulfilment hooks', () => {
  it('When a mandate link is paid, then the handler registered for mandate links fulfils it, in the same transaction', async () => {
    const seen: Array<[Knex.Transaction, string, string]> = [];
    const hooks = new LinkFulfilmentHooks();
    hooks.on('mandate', async (inTrx, link, paid) => {
      seen.push([inTrx, link.id, paid.id]);
    });
    await hooks.fulfil(trx, mandateLink, payment);
    expect(seen).toEqual([[trx, 'lnk_1', 'pay_1']]);
  });

  it('When a mandate link is paid and no handler is registered, then it throws instead of skipping the takeover', async () => {
    await expect(new LinkFulfilmentHooks().fulfil(trx, mandateLink, payment)).rejects.toThrow(
      'no fulfilment is registered for mandate links: link lnk_1 was paid and cannot be fulfilled',
    );
  });

  it('When a second handler registers for mandate links, then it throws (one fulfilment per type)', () => {
    const hooks = new LinkFulfilmentHooks();
    hooks.on('mandate', async () => undefined);
    expect(() => hooks.on('mandate', async () => undefined)).toThrow('a fulfilment of mandate links is registered twice');
  });

  it('When the handler throws, then the fulfilment throws (the settle transaction rolls back)', async () => {
    const hooks = new LinkFulfilmentHooks();
    hooks.on('mandate', async () => {
      throw new Error('takeover failed');
    });
    await expect(hooks.fulfil(trx, mandateLink, payment)).rejects.toThrow('takeover failed');
  });
});
