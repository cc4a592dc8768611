import request from 'supertest';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

interface AccessLine {
  message: string;
  method: string;
  path: string;
  status: number;
}

/** The access log (LOG_LEVEL=http and below) names each request by its whole path, never by its query. */
describe.each(TEST_DATABASES)('the access log, on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;

  beforeAll(async () => {
    ({ token } = await t.newAccount());
  });

  /** The access line of the one request `send` makes. */
  async function accessLineOf(send: () => Promise<unknown>): Promise<AccessLine> {
    const before = t.logs.lines.length;
    await send();
    const lines = t.logs.lines
      .slice(before)
      .map((line) => JSON.parse(line) as AccessLine)
      .filter((line) => line.message === 'request');
    expect(lines).toHaveLength(1);
    return lines[0] as AccessLine;
  }

  it.each([
    ['a payment link page', 'GET', '/pay/lnk_0000000000000000000000?email=anna%40example.nl', '/pay/lnk_0000000000000000000000'],
    [
      'a store webhook',
      'POST',
      '/webhooks/woocommerce/unknownref00000000000?token=secret-token',
      '/webhooks/woocommerce/unknownref00000000000',
    ],
    ['an API list', 'GET', '/api/v2/customers?page=2&email=anna%40example.nl', '/api/v2/customers'],
  ])(
    'When %s is requested, then the line keeps the whole path, mount point included, without the query',
    async (_what, method, url, path) => {
      const line = await accessLineOf(() => {
        const req =
          method === 'GET' ? request(t.app).get(url) : request(t.app).post(url).set('Content-Type', 'application/json').send('{}');
        return req.set('Authorization', `Bearer ${token}`);
      });
      expect(line).toMatchObject({ method, path });
      expect(JSON.stringify(line)).not.toContain('anna');
      expect(JSON.stringify(line)).not.toContain('secret-token');
    },
  );
});
