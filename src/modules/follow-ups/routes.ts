import { idParams, listRoute, readOneRoute } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { presentFollowUps } from './presenter';
import { followUpListQuery, followUpResponse, updateFollowUpBody } from './schemas';
import { getFollowUp, listFollowUps, setFollowUpStatus } from './service';

const names = { path: '/api/v2/follow-ups', tag: 'Follow-ups', plural: 'follow-ups', item: followUpResponse };
const present = presentFollowUps;

export const followUpRoutes = [
  listRoute({
    ...names,
    operationId: 'listFollowUps',
    summary: 'List follow-ups of failed payments (extension filters: status, subscription_id)',
    query: followUpListQuery,
    filtersOf: (query) => ({ status: query.status, subscription_id: query.subscription_id }),
    list: listFollowUps,
    present,
  }),
  readOneRoute({ ...names, operationId: 'getFollowUp', summary: 'Get one follow-up', get: getFollowUp, present }),
  defineRoute({
    methods: ['put'],
    path: `${names.path}/:id`,
    operationId: 'updateFollowUp',
    summary: 'Set a follow-up solved or failed by hand',
    tag: names.tag,
    status: 200,
    extension: true,
    params: idParams,
    body: updateFollowUpBody,
    response: followUpResponse,
    invalidMessage: 'Could not update follow-up. Some fields contain invalid data',
    conflict: 'The follow-up is no longer pending: it was solved or failed already',
    async handle({ ctx, account, params, body }) {
      const [item] = await present(ctx.db, ctx.config, account.id, [await setFollowUpStatus(ctx, account, params.id, body.status)]);
      if (item === undefined) throw new Error(`Presenting follow-up ${params.id} gave nothing`);
      return item;
    },
  }),
];
