import { listRoute, readOneRoute } from '../../http/resourceRoutes';
import { presentPaymentLinks } from './presenter';
import { paymentLinkResponse } from './schemas';
import { getPaymentLink, listPaymentLinks } from './service';

const names = { path: '/api/v2/links', tag: 'Payment links', plural: 'payment links', item: paymentLinkResponse };
const present = presentPaymentLinks;

export const linkRoutes = [
  listRoute({ ...names, operationId: 'listPaymentLinks', summary: 'List payment links', list: listPaymentLinks, present }),
  readOneRoute({ ...names, operationId: 'getPaymentLink', summary: 'Get one payment link', get: getPaymentLink, present }),
];
