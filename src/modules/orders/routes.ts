import { listRoute, readOneRoute } from '../../http/resourceRoutes';
import { presentOrders } from './presenter';
import { orderListQuery, orderResponse } from './schemas';
import { getOrder, listOrders } from './service';

const names = { path: '/api/v2/orders', tag: 'Orders', plural: 'orders', item: orderResponse };
const present = presentOrders;

export const orderRoutes = [
  listRoute({
    ...names,
    operationId: 'listOrders',
    summary: 'List orders with their lines (extension filter: status)',
    query: orderListQuery,
    filtersOf: (query) => ({ status: query.status }),
    list: listOrders,
    present,
  }),
  readOneRoute({ ...names, operationId: 'getOrder', summary: 'Get one order with its lines', get: getOrder, present }),
];
