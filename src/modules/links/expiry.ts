import type { AppContext } from '../../context';
import { calendarDateIn, toDbDateTime } from '../../time';
import { paymentLinksRepository } from './repository';

/**
 * Open links whose `expires_at` day is over (in APP_TIMEZONE) become `expired` and inactive. One
 * conditional statement, so a link paid at this moment keeps its `paid`. A payment that was already
 * at the checkout still fulfils the link when paid: the money decides, not the clock.
 */
export async function expireLinks(ctx: AppContext): Promise<number> {
  const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  return paymentLinksRepository.expireEndedBefore(ctx.db, today, toDbDateTime(ctx.clock.now()));
}
