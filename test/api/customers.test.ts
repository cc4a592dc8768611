import { authenticateToken } from '../../src/modules/accounts/service';
import { sendCustomerToProvider } from '../../src/modules/customers/creation';
import { customersRepository, type CustomerRow } from '../../src/modules/customers/repository';
import { customerResponse } from '../../src/modules/customers/schemas';
import { TEST_DATABASES } from '../support/databases';
import { itBehavesLikeAPagedList } from '../support/pagedList';
import { seedCustomer } from '../support/seed';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

describe.each(TEST_DATABASES)('customers on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;

  beforeAll(async () => {
    ({ token } = await t.newAccount());
  });

  const validCustomer = { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' };

  describe('POST /api/v2/customers', () => {
    it('When the body is valid, then it answers 201 with the customer field by field and a provider customer id', async () => {
      const res = await t.as(token).post('/api/v2/customers', { ...validCustomer, country: 'nl', locale: 'nl', phone: '+31612345678' });
      expect(res.status).toBe(201);
      expect(customerResponse.strict().parse(res.body)).toEqual(res.body);
      expect(res.body).toMatchObject({
        first_name: 'Anna',
        last_name: 'de Vries',
        email: 'anna@example.nl',
        country: 'NL',
        locale: 'nl',
        phone: '+31612345678',
        number: null,
        organization_name: null,
      });
      expect(res.body.id).toMatch(/^cus_[0-9A-Za-z]{16}$/);
      expect(res.body.provider_customer_id).toMatch(/^cst_[0-9A-Za-z]{10}$/);
      // 10:00 UTC on 21 November is 11:00 in Amsterdam (CET).
      expect(res.body.created_at).toBe('2026-11-21 11:00:00');
    });

    it.each(['first_name', 'last_name', 'email'])('When %s is missing, then it answers 422 naming that field', async (field) => {
      const body: Record<string, string> = { ...validCustomer };
      delete body[field];
      const res = await t.as(token).post('/api/v2/customers', body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        status: 422,
        error: 'Could not create customer. Some fields contain invalid data',
        code: 'validation_failed',
        fields: { [field]: [`The ${field.replace('_', ' ')} field is required.`] },
      });
    });

    it.each([
      ['email', 'not-an-email', 'The email field must be a valid email address.'],
      ['locale', 'it', 'The selected locale is invalid.'],
      ['country', 'XX', 'The country field must be an ISO 3166-1 alpha-2 country code.'],
      ['country', 'NLD', 'The country field must be an ISO 3166-1 alpha-2 country code.'],
    ])('When %s is %p, then it answers 422 with a message for that field', async (field, value, message) => {
      const res = await t.as(token).post('/api/v2/customers', { ...validCustomer, [field]: value });
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({ [field]: [message] });
    });
  });

  describe('PUT and PATCH /api/v2/customers/{id}', () => {
    it('When only some fields are sent, then the others keep their value; PATCH does the same', async () => {
      const created = await t.as(token).post('/api/v2/customers', { ...validCustomer, city: 'Utrecht' });
      const put = await t.as(token).put(`/api/v2/customers/${created.body.id}`, { last_name: 'Jansen' });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ...created.body, last_name: 'Jansen' });
      const patch = await t.as(token).patch(`/api/v2/customers/${created.body.id}`, { city: 'Delft' });
      expect(patch.status).toBe(200);
      expect(patch.body).toEqual({ ...created.body, last_name: 'Jansen', city: 'Delft' });
      const read = await t.as(token).get(`/api/v2/customers/${created.body.id}`);
      expect(read.body).toEqual(patch.body);
    });

    it.each([
      ['first_name', '', 'The first name field is required.'],
      ['email', 'nope', 'The email field must be a valid email address.'],
      ['locale', 'pt', 'The selected locale is invalid.'],
      ['country', 'Netherlands', 'The country field must be an ISO 3166-1 alpha-2 country code.'],
      ['phone', 42, 'The phone field must be a string.'],
    ])('When an update sets %s to %p, then it answers 422 for that field and changes nothing', async (field, value, message) => {
      const created = await t.as(token).post('/api/v2/customers', validCustomer);
      const res = await t.as(token).put(`/api/v2/customers/${created.body.id}`, { [field]: value });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        status: 422,
        error: 'Could not update customer. Some fields contain invalid data',
        code: 'validation_failed',
        fields: { [field]: [message] },
      });
      expect((await t.as(token).get(`/api/v2/customers/${created.body.id}`)).body).toEqual(created.body);
    });

    it('When an update sets an optional field to null or "", then that field is cleared', async () => {
      const created = await t.as(token).post('/api/v2/customers', { ...validCustomer, city: 'Utrecht', phone: '+31612345678' });
      const res = await t.as(token).put(`/api/v2/customers/${created.body.id}`, { city: null, phone: '' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...created.body, city: null, phone: null });
    });

    it('When the id belongs to another account, then it answers 404 exactly like an unknown id', async () => {
      const other = await t.newAccount();
      const created = await t.as(other.token).post('/api/v2/customers', validCustomer);
      const foreign = await t.as(token).put(`/api/v2/customers/${created.body.id}`, { last_name: 'X' });
      const unknown = await t.as(token).put('/api/v2/customers/cus_doesnotexist0000', { last_name: 'X' });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ status: 404, error: 'Customer not found', code: 'not_found' });
      expect(unknown.body).toEqual(foreign.body);
    });
  });

  describe('GET /api/v2/customers', () => {
    it('When per_page is given, then pages have that size and the links keep it', async () => {
      const { token: own } = await t.newAccount();
      for (let i = 0; i < 5; i += 1) await t.as(own).post('/api/v2/customers', { ...validCustomer, number: `P${i}` });
      const res = await t.as(own).get('/api/v2/customers?per_page=2&page=2');
      const path = `${TEST_PUBLIC_URL}/api/v2/customers`;
      expect(res.body.data.map((c: { number: string }) => c.number)).toEqual(['P2', 'P3']);
      expect(res.body.links).toEqual({
        first: `${path}?page=1&per_page=2`,
        last: `${path}?page=3&per_page=2`,
        prev: `${path}?page=1&per_page=2`,
        next: `${path}?page=3&per_page=2`,
      });
      expect(res.body.meta).toEqual({ current_page: 2, last_page: 3, per_page: 2, total: 5, from: 3, to: 4, path });
    });

    itBehavesLikeAPagedList({
      app: () => t,
      path: '/api/v2/customers',
      plural: 'customers',
      item: customerResponse,
      seed: async (app, accountId, index) => (await seedCustomer(app.ctx.db, accountId, { number: `C${index}` })).id,
      notFound: 'Customer not found',
      unknownId: 'cus_doesnotexist0000',
    });
  });

  describe('confirming at the provider', () => {
    it(
      'When another resume recorded the provider customer first, then a resume answers the one recorded and overwrites ' + 'nothing',
      async () => {
        const created = await t.as(token).post('/api/v2/customers', validCustomer).expect(201);
        const id = (created.body as { id: string }).id;
        await t.ctx.db('customers').where({ id }).update({ provider_customer_id: 'cst_recordedfirst' });
        const account = (await authenticateToken(t.ctx.db, t.ctx.clock, token))?.account;
        if (!account) throw new Error('the test token is unknown');
        const stale = (await customersRepository.find(t.ctx.db, account.id, id)) as CustomerRow;
        const resumed = await sendCustomerToProvider(
          t.ctx,
          await t.ctx.providers.forAccount(account),
          { ...stale, provider_customer_id: null },
          { resumed: true },
        );
        expect(resumed.provider_customer_id).toBe('cst_recordedfirst');
        expect((await t.as(token).get(`/api/v2/customers/${id}`).expect(200)).body).toEqual(
          expect.objectContaining({ provider_customer_id: 'cst_recordedfirst' }),
        );
      },
    );
  });
});
