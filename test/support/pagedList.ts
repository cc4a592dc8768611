import request from 'supertest';
import type { z } from 'zod';
import { pagedEnvelopeSchema } from '../../src/validation/pagination';
import { TEST_PUBLIC_URL, type TestApp } from './testApp';

export interface PagedListUnderTest {
  /** The test app, created in the caller's beforeAll. */
  app: () => TestApp;
  /** The list's path, e.g. `/api/v2/links`. */
  path: string;
  /** As the 422 sentence names it: "Could not list <plural>. …". */
  plural: string;
  item: z.ZodObject;
  /** Creates the index-th item of an account; answers its id. */
  seed: (t: TestApp, accountId: string, index: number) => Promise<string>;
  /** A well-formed id that exists nowhere, for the read-one route. */
  unknownId: string;
  /** The 404 sentence of the read-one route, e.g. "Payment link not found". */
  notFound: string;
}

/**
 * What every paged list shares (docs/api.md, Paged lists): the envelope on the first, a middle, the last and a page past
 * the end; tenancy; bad page parameters; authentication of the list and of its read-one route.
 */
export function itBehavesLikeAPagedList(list: PagedListUnderTest): void {
  const url = `${TEST_PUBLIC_URL}${list.path}`;
  const idsOf = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);
  const links = (last: number, prev: number | null, next: number | null) => ({
    first: `${url}?page=1`,
    last: `${url}?page=${last}`,
    prev: prev === null ? '' : `${url}?page=${prev}`,
    next: next === null ? '' : `${url}?page=${next}`,
  });
  const meta = (current: number, from: number | null, to: number | null) => ({
    current_page: current,
    last_page: 3,
    per_page: 15,
    total: 31,
    from,
    to,
    path: url,
  });

  it(`When an account has 31 items, then pages 1, 2, 3 and 4 of ${list.path} carry the documented envelope`, async () => {
    const t = list.app();
    const own = await t.newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 31; i += 1) ids.push(await list.seed(t, own.accountId, i));

    const page1 = await t.as(own.token).get(list.path);
    expect(page1.status).toBe(200);
    expect(pagedEnvelopeSchema(list.item.strict()).strict().parse(page1.body)).toEqual(page1.body);
    expect(idsOf(page1.body)).toEqual(ids.slice(0, 15));
    expect(page1.body.links).toEqual(links(3, null, 2));
    expect(page1.body.meta).toEqual(meta(1, 1, 15));

    const page2 = await t.as(own.token).get(`${list.path}?page=2`);
    expect(idsOf(page2.body)).toEqual(ids.slice(15, 30));
    expect(page2.body.links).toEqual(links(3, 1, 3));
    expect(page2.body.meta).toEqual(meta(2, 16, 30));

    const page3 = await t.as(own.token).get(`${list.path}?page=3`);
    expect(idsOf(page3.body)).toEqual(ids.slice(30));
    expect(page3.body.links).toEqual(links(3, 2, null));
    expect(page3.body.meta).toEqual(meta(3, 31, 31));

    const past = await t.as(own.token).get(`${list.path}?page=4`);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.links).toEqual(links(3, 3, null));
    expect(past.body.meta).toEqual(meta(4, null, null));
  });

  it(`When another account has items, then they never appear in this account’s ${list.path}`, async () => {
    const t = list.app();
    const mine = await t.newAccount();
    const theirs = await t.newAccount();
    const own = await list.seed(t, mine.accountId, 0);
    await list.seed(t, theirs.accountId, 0);
    await list.seed(t, theirs.accountId, 1);
    const res = await t.as(mine.token).get(list.path);
    expect(idsOf(res.body)).toEqual([own]);
    expect(res.body.meta).toMatchObject({ total: 1, last_page: 1 });
  });

  it(`When ${list.path}/{id} names another account’s item, then it answers 404 exactly like an unknown id`, async () => {
    const t = list.app();
    const mine = await t.newAccount();
    const theirs = await t.newAccount();
    const foreignId = await list.seed(t, theirs.accountId, 0);
    const foreign = await t.as(mine.token).get(`${list.path}/${foreignId}`);
    const unknown = await t.as(mine.token).get(`${list.path}/${list.unknownId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ status: 404, error: list.notFound, code: 'not_found' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(foreign.body);
  });

  it.each([
    ['page=0', { page: ['The page field must be at least 1.'] }],
    ['page=abc', { page: ['The page field must be an integer.'] }],
    ['per_page=0', { per_page: ['The per page field must be at least 1.'] }],
    ['per_page=101', { per_page: ['The per page field must not be greater than 100.'] }],
  ])(`When the query of ${list.path} is %s, then it answers 422 naming the parameter`, async (query, fields) => {
    const t = list.app();
    const { token } = await t.newAccount();
    const res = await t.as(token).get(`${list.path}?${query}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      status: 422,
      error: `Could not list ${list.plural}. Some parameters are invalid`,
      code: 'validation_failed',
      fields,
    });
  });

  it.each([
    ['no token', undefined, 'Unauthenticated: send a valid token as "Authorization: Bearer <token>"'],
    ['an unknown token', 'Bearer rps_notarealtoken', 'Unauthenticated: the token is unknown or revoked'],
  ])(`When ${list.path} and its read-one route get %s, then they answer 401`, async (_case, authorization, error) => {
    for (const path of [list.path, `${list.path}/${list.unknownId}`]) {
      const call = request(list.app().app).get(path);
      const res = await (authorization ? call.set('Authorization', authorization) : call);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 401,
        body: { status: 401, error, code: 'unauthenticated' },
      });
    }
  });
}
