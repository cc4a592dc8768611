import type { AppContext } from '../context';
import { ValidationError, type FieldErrors, errorMessage } from '../errors';
import { CHARGED_CURRENCIES, formatCents, type Cents } from '../money';
import type { PaymentLimits, SequenceType } from './types';

/** The account the limits are asked for: its id is all the provider registry needs. */
type AccountRef = { id: string };

/**
 * Amounts and currencies the account's provider would refuse are refused when they are given — a payment, a
 * link, a subscription's rules, a product's price — with a 422 that names the limit or the currencies the account
 * can charge, instead of being accepted (201) and refused later, at the checkout or on the day of a charge when
 * nobody is there to correct them. The provider's adapter reports what each method takes (paymentLimits); the rule
 * is here, beside the providers, as every module that takes an amount (payments, links, subscriptions,
 * products) uses it.
 */

/** How long the provider's answer is used: it changes when the merchant enables a method, rarely. */
export const LIMITS_KEPT_MS = 5 * 60 * 1000;

/**
 * The check must never hold up a checkout (the plugin waits 20 s for the whole payment): the provider's limits are
 * waited for this long at most; without them the payment goes on, and the provider still refuses what it does not take.
 */
export const LIMITS_WAIT_MS = 3000;

const kept = new WeakMap<AppContext, Map<string, { at: number; limits: PaymentLimits }>>();

function withinWait<T>(answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${LIMITS_WAIT_MS} ms`)), LIMITS_WAIT_MS);
    timer.unref();
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

async function limitsOf(ctx: AppContext, account: AccountRef, sequenceType: SequenceType, currency: string): Promise<PaymentLimits | null> {
  let byKey = kept.get(ctx);
  if (!byKey) kept.set(ctx, (byKey = new Map()));
  const key = `${account.id} ${sequenceType} ${currency}`;
  const now = ctx.clock.now().getTime();
  const known = byKey.get(key);
  if (known && now - known.at < LIMITS_KEPT_MS) return known.limits;
  try {
    const provider = await ctx.providers.forAccount(account);
    const limits = await withinWait(provider.paymentLimits(sequenceType, currency));
    byKey.set(key, { at: now, limits });
    return limits;
  } catch (error) {
    // Not known now: the provider itself still refuses what it does not take when the payment is made.
    ctx.logger.warn('payment limits not checked: the provider did not answer them', {
      accountId: account.id,
      error: errorMessage(error),
    });
    return null;
  }
}

export interface AmountsToCharge {
  /** `oneoff` or `first` for a checkout, `recurring` for charges on a mandate. */
  sequenceType: SequenceType;
  currency: string;
  /** The field the currency came in; none when the client did not choose it (refused on the first amount's field). */
  currencyField?: string;
  /** The methods the amounts may be paid with (the payment's method, a mandate's); none: every enabled method. */
  methods?: readonly string[] | null;
  /** Each amount with the field it came in (`amount`, `rules.0.amount`). */
  amounts: ReadonlyArray<{ amount: Cents; field: string }>;
  /** The 422's message, as the endpoint words its refusals. */
  message: string;
}

/**
 * Throws 422 when the account cannot charge the currency (naming the ones it can) or an amount is above what every
 * method it may be paid with accepts (naming that maximum and the method).
 */
export async function refuseUnchargeable(ctx: AppContext, account: AccountRef, request: AmountsToCharge): Promise<void> {
  const first = request.amounts[0];
  if (!first) return;
  const ours = CHARGED_CURRENCIES.includes(request.currency);
  const limits = ours ? await limitsOf(ctx, account, request.sequenceType, request.currency) : null;
  if (!ours || (limits && !limits.methods.length)) {
    // What the account can charge: the provider's currencies that the service keeps books in.
    const anyLimits = limits ?? (await limitsOf(ctx, account, request.sequenceType, CHARGED_CURRENCIES[0] as string));
    const accepted = anyLimits ? CHARGED_CURRENCIES.filter((currency) => anyLimits.currencies.includes(currency)) : CHARGED_CURRENCIES;
    const named = accepted.length ? accepted.join(', ') : 'none';
    throw ValidationError.field(
      request.message,
      request.currencyField ?? first.field,
      `The account cannot charge ${request.currency}; it accepts: ${named}.`,
    );
  }
  if (!limits) return;
  const wanted = request.methods?.length ? new Set(request.methods) : null;
  const usable = wanted ? limits.methods.filter((limit) => wanted.has(limit.method)) : limits.methods;
  // A method the provider does not list for this currency is refused by the provider, naming the method.
  if (!usable.length) return;
  if (usable.some((limit) => limit.maximum === null)) return;
  const highest = usable.reduce((best, limit) => ((limit.maximum ?? 0) > (best.maximum ?? 0) ? limit : best));
  const maximum = highest.maximum ?? 0;
  const fields: FieldErrors = {};
  for (const { amount, field } of request.amounts) {
    if (amount <= maximum) continue;
    const by = wanted ? `by ${highest.method}` : `by any payment method of the account (${highest.method} accepts the most)`;
    fields[field] = [`The amount may be at most ${request.currency} ${formatCents(maximum)}: the most that can be charged ${by}.`];
  }
  if (Object.keys(fields).length) throw new ValidationError(request.message, fields);
}
