import type { Account, AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import type { Page, PageRequest } from '../../http/pagination';
import { paymentLinksRepository, type PaymentLinkRow } from './repository';

export async function getPaymentLink(ctx: AppContext, account: Account, id: string): Promise<PaymentLinkRow> {
  const row = await paymentLinksRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Payment link');
  return row;
}

export function listPaymentLinks(ctx: AppContext, account: Account, request: PageRequest): Promise<Page<PaymentLinkRow>> {
  return paymentLinksRepository.page(ctx.db, account.id, request);
}
