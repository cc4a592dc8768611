import { listRoute, readOneRoute } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { presentSyncRun, presentSyncRuns } from './syncPresenter';
import { startSyncBody, syncRunResponse } from './syncSchemas';
import { getSyncRun, listSyncRuns, startSync } from './syncService';

const names = { path: '/api/v2/sync/runs', tag: 'Store sync', plural: 'sync runs', item: syncRunResponse };

/** Starting a sync of products and of orders: the same route but for its kind. */
const startRoute = {
  methods: ['post' as const],
  tag: names.tag,
  status: 202 as const,
  extension: true,
  body: startSyncBody,
  response: syncRunResponse,
  invalidMessage: 'Could not start the sync',
};

export const syncRoutes = [
  defineRoute({
    ...startRoute,
    path: '/api/v2/sync/products',
    operationId: 'syncProducts',
    summary: "Start a sync of the store's products (202 with the run; 409 while one runs)",
    async handle({ ctx, account, body }) {
      return presentSyncRun(ctx.config, await startSync(ctx, account, 'products', body.full === true));
    },
  }),
  defineRoute({
    ...startRoute,
    path: '/api/v2/sync/orders',
    operationId: 'syncOrders',
    summary: "Start a sync of the store's orders (202 with the run; 409 while one runs)",
    async handle({ ctx, account, body }) {
      return presentSyncRun(ctx.config, await startSync(ctx, account, 'orders', body.full === true));
    },
  }),
  listRoute({
    ...names,
    operationId: 'listSyncRuns',
    summary: 'List store sync runs, oldest first',
    list: listSyncRuns,
    present: presentSyncRuns,
  }),
  readOneRoute({
    ...names,
    operationId: 'getSyncRun',
    summary: 'One sync run: status, progress and errors',
    get: getSyncRun,
    present: presentSyncRuns,
  }),
];
