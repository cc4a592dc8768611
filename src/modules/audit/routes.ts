import { defineRoute } from '../../http/route';
import { presentAudit } from './presenter';
import { auditRun, latestAudit, requestAuditSince } from './service';
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
      return presentAudit(await latestAudit(ctx, account.id), ctx.config);
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
      return presentAudit(await requestAuditSince(ctx, account, body.since), ctx.config);
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
      return presentAudit(await auditRun(ctx, account.id, params.id), ctx.config);
    },
  }),
];
