import { NotFoundError } from '../../errors';
import { defineRoute } from '../../http/route';
import { instantFromZonedDateTime } from '../../time';
import { presentAudit } from './presenter';
import { auditRun, latestAudit, requestAudit } from './reports';
import { auditParams, auditResponse, requestAuditBody } from './schemas';

export const auditRoutes = [
  defineRoute({
    methods: ['get'],
    path: '/api/v2/audit',
    operationId: 'getLatestAudit',
    summary: "The account's latest finished ledger audit (the daily job's, or one asked for); 404 before the first",
    tag: 'Audit',
    status: 200,
    extension: true,
    response: auditResponse,
    invalidMessage: 'Could not get audit',
    async handle({ ctx, account }) {
      const row = await latestAudit(ctx, account.id);
      if (!row) throw new NotFoundError('Audit report');
      return presentAudit(row, ctx.config);
    },
  }),
  defineRoute({
    methods: ['post'],
    path: '/api/v2/audit',
    operationId: 'requestAudit',
    summary: 'Start a ledger audit in the background; answered at once (202) with the run, or the one still running',
    tag: 'Audit',
    status: 202,
    extension: true,
    body: requestAuditBody,
    response: auditResponse,
    invalidMessage: 'Could not start audit',
    async handle({ ctx, account, body }) {
      const since = body.since ? instantFromZonedDateTime(`${body.since} 00:00:00`, ctx.config.APP_TIMEZONE) : null;
      return presentAudit(await requestAudit(ctx, account, since), ctx.config);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/audit/:id',
    operationId: 'getAudit',
    summary: 'One run of the ledger audit (poll the one POST started)',
    tag: 'Audit',
    status: 200,
    extension: true,
    params: auditParams,
    response: auditResponse,
    invalidMessage: 'Could not get audit',
    async handle({ ctx, account, params }) {
      const row = await auditRun(ctx, account.id, params.id);
      if (!row) throw new NotFoundError('Audit report');
      return presentAudit(row, ctx.config);
    },
  }),
];
