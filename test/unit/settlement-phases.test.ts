import type { Knex } from 'knex';
import type { PaymentRow } from '../../src/modules/payments/repository';
import { SETTLEMENT_PHASES, SettlementHooks, type PaymentSettlement, type SettlementPhase } from '../../src/modules/payments/settlement';

/** Hooks with one recording handler per (phase, name), registered in the order given. */
function hooksRecording(registrations: Array<[SettlementPhase, string]>, purposes: PaymentRow['purpose'][] | 'all' = 'all') {
  const ran: string[] = [];
  const hooks = new SettlementHooks();
  for (const [phase, name] of registrations) {
    hooks.on(phase, purposes, async () => {
      ran.push(`${phase}:${name}`);
    });
  }
  return { hooks, ran };
}

const trx = {} as Knex.Transaction;
const settlementOf = (purpose: PaymentRow['purpose']): PaymentSettlement => ({
  payment: { id: 'pay_1', purpose } as PaymentRow,
  from: 'open',
  to: 'paid',
});

describe('settlement phases', () => {
  it('When the phases are listed, then what a payment was for comes first and invoices last', () => {
    expect(SETTLEMENT_PHASES).toEqual(['fulfilment', 'follow-ups', 'store', 'invoices']);
  });

  it('When handlers are registered last phase first, then they still run phase by phase', async () => {
    const { hooks, ran } = hooksRecording([
      ['invoices', 'payment invoices'],
      ['store', 'renewal orders'],
      ['follow-ups', 'double payments'],
      ['fulfilment', 'links'],
    ]);
    await hooks.run(trx, settlementOf('link'));
    expect(ran).toEqual(['fulfilment:links', 'follow-ups:double payments', 'store:renewal orders', 'invoices:payment invoices']);
  });

  it('When the same handlers are registered in any order, then the order they run in is the same', async () => {
    const charge: [SettlementPhase, string] = ['fulfilment', 'charge'];
    const failure: [SettlementPhase, string] = ['follow-ups', 'failure'];
    const renewal: [SettlementPhase, string] = ['store', 'renewal'];
    const credit: [SettlementPhase, string] = ['invoices', 'credit'];
    const orders = [
      [charge, failure, renewal, credit],
      [credit, renewal, failure, charge],
      [renewal, charge, credit, failure],
    ];
    for (const order of orders) {
      const { hooks, ran } = hooksRecording(order);
      await hooks.run(trx, settlementOf('charge'));
      expect(ran).toEqual(['fulfilment:charge', 'follow-ups:failure', 'store:renewal', 'invoices:credit']);
    }
  });

  it('When two handlers share a phase, then they run in the order they were registered', async () => {
    const { hooks, ran } = hooksRecording([
      ['follow-ups', 'second'],
      ['fulfilment', 'first'],
      ['follow-ups', 'third'],
    ]);
    await hooks.run(trx, settlementOf('order'));
    expect(ran).toEqual(['fulfilment:first', 'follow-ups:second', 'follow-ups:third']);
  });

  it('When a payment was made for another purpose, then a phase handler for other purposes does not run', async () => {
    const { hooks, ran } = hooksRecording([['fulfilment', 'links']], ['link']);
    await hooks.run(trx, settlementOf('charge'));
    expect(ran).toEqual([]);
  });
});
