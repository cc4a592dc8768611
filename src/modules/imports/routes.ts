import { pageRequestFrom } from '../../validation/pagination';
import { defineRoute } from '../../http/route';
import { presentImport } from './presenter';
import { createImportBody, createImportSummary, importParams, importQuery, importResponse } from './schemas';
import { createImport, importReport } from './service';

export const importRoutes = [
  defineRoute({
    methods: ['post'],
    path: '/api/v2/imports',
    operationId: 'createImport',
    summary: createImportSummary,
    tag: 'Imports',
    status: 201,
    extension: true,
    body: createImportBody,
    response: importResponse,
    invalidMessage: 'Could not start import. Some fields contain invalid data',
    async handle({ ctx, account, body }) {
      return presentImport(await createImport(ctx, account, body), ctx.config);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/imports/:id',
    operationId: 'getImport',
    summary: 'The report of an import: its counts and the outcome of each row (paged with page / per_page)',
    tag: 'Imports',
    status: 200,
    extension: true,
    params: importParams,
    query: importQuery,
    response: importResponse,
    invalidMessage: 'Could not get import. Some parameters are invalid',
    async handle({ ctx, account, params, query }) {
      return presentImport(await importReport(ctx, account, params.id, pageRequestFrom(query)), ctx.config);
    },
  }),
];
