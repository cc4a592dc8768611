import { listRoute, readOneRoute } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { presentSyncRun, presentSyncRuns } from './syncPresenter';
import { startSyncBody, syncRunResponse } from './syncSchemas';
import { getSyncRun, listSyncRuns, startSync } from './syncService';

const names = { path: '/api/v2/sync/runs', tag: 'Store sync', plural: 'sync runs', item: syncRunResponse };

const startRoute = (kind: 'products' | 'orders') =>
  defineRoute({
    methods: ['post'],
    path: `/api/v2/sync/${kind}`,
    operationId: kind === 'products' ? 'syncProducts' : 'syncOrders',
    summary: `Start a sync of the store's ${kind} (202 with the run; 409 while one runs)`,
    tag: names.tag,
    status: 202,
    extension: true,
    body: startSyncBody,
    response: syncRunResponse,
    invalidMessage: 'Could not start the sync',
    async handle({ ctx, account, body }) {
      return presentSyncRun(ctx.config, await startSync(ctx, account, kind, body.full === true));
    },
  });

export const syncRoutes = [
  startRoute('products'),
  startRoute('orders'),
  listRoute({ ...names, operationId: 'listSyncRuns', summary: 'List store sync runs, oldest first', list: listSyncRuns, present: presentSyncRuns }),
  readOneRoute({ ...names, operationId: 'getSyncRun', summary: 'One sync run: status, progress and errors', get: getSyncRun, present: presentSyncRuns }),
];

