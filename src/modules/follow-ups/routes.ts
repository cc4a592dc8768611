import { listRoute, readOneRoute } from '../../http/resourceRoutes';
import { presentFollowUps } from './presenter';
import { followUpResponse } from './schemas';
import { getFollowUp, listFollowUps } from './service';

const names = { path: '/api/v2/follow-ups', tag: 'Follow-ups', plural: 'follow-ups', item: followUpResponse };
const present = presentFollowUps;

export const followUpRoutes = [
  listRoute({ ...names, operationId: 'listFollowUps', summary: 'List follow-ups of failed payments', list: listFollowUps, present }),
  readOneRoute({ ...names, operationId: 'getFollowUp', summary: 'Get one follow-up', get: getFollowUp, present }),
];
