import express from 'express';
import request from 'supertest';
import type { Account } from '../../src/context';
import type { PageLocale } from '../../src/i18n/locales';
import { portalAccountRouter } from '../../src/pages/portal/accountRoutes';
import { setVisitor } from '../../src/pages/portal/visitor';
import type { TestApp } from './testApp';

/**
 * INTERIM, until the portal-auth milestone lands: the portal's signed-in pages for one customer, the
 * way the session middleware mounts them (forms parsed, `_csrf` checked), with the same shape as
 * test/support/portal.ts's openPortal. Replaced by it at the merge.
 */
export async function openPortal(
  t: Pick<TestApp, 'app' | 'ctx'>,
  _apiToken: string,
  customerId: string,
  options: { return_url?: string; locale?: PageLocale } = {},
) {
  const customer = await t.ctx.db('customers').where({ id: customerId }).first();
  const account = (await t.ctx.db('accounts').where({ id: customer.account_id }).first()) as Account;
  const csrfToken = 'csrf-of-this-session';
  const visitor = {
    sessionId: 'ses_interim',
    account,
    customerId,
    locale: options.locale ?? 'en',
    csrfToken,
    returnUrl: options.return_url ?? null,
  };
  const outer = express();
  outer.use(
    '/portal',
    express.urlencoded({ extended: false }),
    (req, res, next) => {
      if (req.method === 'POST' && req.body?._csrf !== csrfToken) return void res.status(403).send('Forbidden');
      setVisitor(res, visitor);
      next();
    },
    portalAccountRouter(t.ctx),
  );
  outer.use((req, res, next) => t.app(req, res, next));
  const agent = request.agent(outer);
  return {
    agent,
    csrfToken,
    post: (path: string, form: Record<string, string> = {}) =>
      agent
        .post(path)
        .type('form')
        .send({ ...form, _csrf: csrfToken }),
  };
}
