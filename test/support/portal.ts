import request from 'supertest';
import { csrfTokenOf } from '../../src/modules/portal/secrets';
import { SESSION_COOKIE } from '../../src/pages/portal/session';
import type { TestApp } from './testApp';

/** A browser in the customer portal: its session cookie, and the token every form of the session carries. */
export interface PortalBrowser {
  /** A supertest agent that sends the session cookie with every request under /portal. */
  agent: ReturnType<typeof request.agent>;
  /** The session's `_csrf` (what the pages put in their forms' hidden field). */
  csrfToken: string;
  /** The session cookie's value (the session's secret). */
  sessionSecret: string;
  /** The single-use link the API answered (already used). */
  url: string;
  /** A form POST under the session, with `_csrf` added: `portal.post('/portal/subscriptions/sub_…/pause', { until: '…' })`. */
  post(path: string, form?: Record<string, string>): request.Test;
}

export interface OpenPortalOptions {
  return_url?: string;
  locale?: 'nl' | 'en' | 'fr' | 'de' | 'es';
}

/**
 * Opens the customer portal the way a shop does: `POST /api/v2/customers/{id}/portal-sessions` with
 * the account's API token, then the link (303 to `/portal/`, the cookie set). Answers an agent that
 * carries the cookie, and the CSRF token for its forms.
 *
 *   const portal = await openPortal(t, token, customer.id);
 *   const overview = await portal.agent.get('/portal/');
 *   await portal.post(`/portal/subscriptions/${id}/skip`).expect(303);
 */
export async function openPortal(
  t: Pick<TestApp, 'app' | 'ctx'>,
  apiToken: string,
  customerId: string,
  options: OpenPortalOptions = {},
): Promise<PortalBrowser> {
  const created = await request(t.app)
    .post(`/api/v2/customers/${customerId}/portal-sessions`)
    .set('Authorization', `Bearer ${apiToken}`)
    .send(options);
  if (created.status !== 201) throw new Error(`openPortal: the API answered ${created.status} ${JSON.stringify(created.body)}`);
  const url = (created.body as { url: string }).url;
  const agent = request.agent(t.app);
  const opened = await agent.get(new URL(url).pathname);
  if (opened.status !== 303) throw new Error(`openPortal: the link answered ${opened.status}`);
  const cookie = ([] as string[]).concat(opened.headers['set-cookie'] ?? []).find((line) => line.startsWith(`${SESSION_COOKIE}=`));
  const sessionSecret = cookie?.slice(SESSION_COOKIE.length + 1).split(';', 1)[0];
  if (!sessionSecret) throw new Error('openPortal: the link set no session cookie');
  const csrfToken = csrfTokenOf(t.ctx.config.appKey, sessionSecret);
  return {
    agent,
    csrfToken,
    sessionSecret,
    url,
    post: (path, form = {}) =>
      agent
        .post(path)
        .type('form')
        .send({ ...form, _csrf: csrfToken }),
  };
}
