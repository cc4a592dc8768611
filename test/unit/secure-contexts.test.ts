import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { cacheSecureContextsByCa } from '../../src/providers/mollie/secureContexts';

const TLS = path.join(__dirname, '../../fakes/mollie/tls');

/**
 * The Mollie client's agent carries its own `ca` bundle; Node would build a TLS context from it for
 * every connection (parsing every certificate). With the cache, one context serves them all.
 */
describe('TLS contexts cached by ca', () => {
  const cert = readFileSync(path.join(TLS, 'cert.pem'), 'utf8');
  let server: https.Server;
  let port: number;
  beforeAll(async () => {
    server = https.createServer({ key: readFileSync(path.join(TLS, 'key.pem')), cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (agent: https.Agent) =>
    new Promise<string>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port, path: '/', agent, servername: 'localhost', checkServerIdentity: () => undefined }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve(body));
        })
        .on('error', reject);
    });

  it(
    'When an agent with its own ca makes three connections, then one TLS context is built, and the certificate is still checked ' +
      'against that ca',
    async () => {
      cacheSecureContextsByCa();
      const built = jest.spyOn(tls, 'createSecureContext');
      try {
        const agent = new https.Agent({ ca: cert }); // no keep-alive: a new connection each time, as the Mollie client's
        expect(await get(agent)).toBe('ok');
        expect(await get(agent)).toBe('ok');
        expect(await get(new https.Agent({ ca: cert }))).toBe('ok');
        expect(built).toHaveBeenCalledTimes(1);

        // Another ca that does not vouch for the server: refused, as before.
        const stranger = new https.Agent({ ca: tls.rootCertificates.slice(0, 3).join('\n') });
        await expect(get(stranger)).rejects.toThrow(/self.signed|unable to verify|certificate/i);
      } finally {
        built.mockRestore();
      }
    },
  );
});
