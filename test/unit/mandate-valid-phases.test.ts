import type { MandateRow } from '../../src/modules/mandates/repository';
import { MANDATE_VALID_PHASES, MandateValidHooks, type MandateValidPhase } from '../../src/modules/mandates/validHooks';

/** Hooks with one recording handler per (phase, name, count), registered in the order given. */
function hooksRecording(registrations: Array<[MandateValidPhase, string, number]>) {
  const ran: string[] = [];
  const hooks = new MandateValidHooks();
  for (const [phase, name, count] of registrations) {
    hooks.on(phase, async (mandate) => {
      ran.push(`${phase}:${name}:${mandate.id}`);
      return count;
    });
  }
  return { hooks, ran };
}

const mandate = { id: 'mdt_1', account_id: 'acc_1', status: 'valid' } as MandateRow;

describe('mandate found valid: phases', () => {
  it('When the phases are listed, then waiting takeovers move before drafts activate', () => {
    expect(MANDATE_VALID_PHASES).toEqual(['takeovers', 'drafts']);
  });

  it('When the drafts register before the takeovers, then the takeovers still run first', async () => {
    const { hooks, ran } = hooksRecording([
      ['drafts', 'activate', 2],
      ['takeovers', 'move waiting', 3],
    ]);
    await hooks.run(mandate);
    expect(ran).toEqual(['takeovers:move waiting:mdt_1', 'drafts:activate:mdt_1']);
  });

  it('When handlers answer how many subscriptions they changed, then each phase counts its own', async () => {
    const { hooks } = hooksRecording([
      ['takeovers', 'first', 3],
      ['drafts', 'activate', 2],
      ['takeovers', 'second', 1],
    ]);
    expect(await hooks.run(mandate)).toEqual({ takeovers: 4, drafts: 2 });
  });

  it('When nothing is registered, then nothing changed', async () => {
    expect(await new MandateValidHooks().run(mandate)).toEqual({ takeovers: 0, drafts: 0 });
  });

  it('When a takeover handler throws, then the drafts do not run and the refresh fails', async () => {
    const ran: string[] = [];
    const hooks = new MandateValidHooks();
    hooks.on('drafts', async () => {
      ran.push('drafts');
      return 1;
    });
    hooks.on('takeovers', async () => {
      throw new Error('the move failed');
    });
    await expect(hooks.run(mandate)).rejects.toThrow('the move failed');
    expect(ran).toEqual([]);
  });
});
