import type { MandateRow } from './repository';

/**
 * What runs when a refresh finds a mandate valid (it turned valid, or what waited for it has not caught up
 * yet), phase by phase in this order, whatever order the features registered in (no line of bootstrap.ts
 * decides it):
 *  - takeovers: the takeovers that waited for it move the subscriptions onto it, and only then are the old
 *    mandates revoked (the takeovers module);
 *  - drafts: the draft subscriptions on it become active (the subscriptions module).
 * Within a phase, handlers run in the order they were registered.
 */
export const MANDATE_VALID_PHASES = ['takeovers', 'drafts'] as const;
export type MandateValidPhase = (typeof MANDATE_VALID_PHASES)[number];

/**
 * Runs outside any transaction (each handler takes its own): answers how many subscriptions it changed. A
 * handler that throws stops the ones after it and fails the refresh, which asks again on a later run.
 */
export type MandateValidHandler = (mandate: MandateRow) => Promise<number>;

/** How many subscriptions each phase changed: the refresh reports the drafts made active. */
export type MandateValidCounts = Record<MandateValidPhase, number>;

/**
 * What reacts when a mandate is found valid, as SettlementHooks is for payments: the mandates module names
 * none of the features above it; they register at start (bootstrap.ts), each in its phase.
 */
export class MandateValidHooks {
  private readonly handlers = new Map<MandateValidPhase, MandateValidHandler[]>(MANDATE_VALID_PHASES.map((phase) => [phase, []]));

  on(phase: MandateValidPhase, handle: MandateValidHandler): void {
    this.handlers.get(phase)?.push(handle);
  }

  /** Phase by phase (MANDATE_VALID_PHASES), each phase's handlers in the order they were registered. */
  async run(mandate: MandateRow): Promise<MandateValidCounts> {
    const counts: MandateValidCounts = { takeovers: 0, drafts: 0 };
    for (const phase of MANDATE_VALID_PHASES) {
      for (const handle of this.handlers.get(phase) ?? []) counts[phase] += await handle(mandate);
    }
    return counts;
  }
}
