import type { BookkeepingAdapter } from './adapter';
import { moneybirdAdapter } from './moneybird';

export type { BookkeepingAdapter } from './adapter';

/** The bookkeeping systems, one line each. */
const adapters: BookkeepingAdapter[] = [moneybirdAdapter];

/**
 * Adds a system for the tests of this process (a bookkeeping system of the tests' own); answers how to take it
 * away again. Production code lists its systems above.
 */
export function registerBookkeepingAdapterForTests(adapter: BookkeepingAdapter): () => void {
  if (adapters.some((known) => known.name === adapter.name))
    throw new Error(`A bookkeeping system named "${adapter.name}" is registered already`);
  adapters.push(adapter);
  return () => {
    const index = adapters.indexOf(adapter);
    if (index >= 0) adapters.splice(index, 1);
  };
}

export const bookkeepingAdapters = (): readonly BookkeepingAdapter[] => adapters;

/**
 * The descriptor of the system an account names; undefined for a name this build has no adapter for (an account
 * may name any system: its invoices then wait, `pending`, until one is added).
 */
export const bookkeepingAdapterNamed = (name: string | null | undefined): BookkeepingAdapter | undefined =>
  name ? adapters.find((known) => known.name === name) : undefined;
