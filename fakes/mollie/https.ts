import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { MollieFake } from './fake';

// Beside this file in the tests, from dist/fakes/mollie back to the sources in the benchmark.
const TLS_DIR = [path.join(__dirname, 'tls'), path.join(__dirname, '../../../fakes/mollie/tls')].find((dir) => existsSync(dir)) ?? '';

/**
 * Serves the fake over HTTPS on loopback, for a service started as a child process (the Mollie
 * client refuses http://). A lost answer is a connection destroyed after the work was done.
 */
export async function serveOverHttps(fake: MollieFake): Promise<{ apiUrl: string; close(): Promise<void> }> {
  const server: Server = createServer(
    { key: readFileSync(path.join(TLS_DIR, 'key.pem')), cert: readFileSync(path.join(TLS_DIR, 'cert.pem')) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const key = req.headers['idempotency-key'];
        void fake
          .handle({
            method: req.method ?? 'GET',
            path: req.url ?? '/',
            idempotencyKey: Array.isArray(key) ? key[0] : key,
            body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
          })
          .then((answer) => {
            if ('lost' in answer) {
              req.socket.destroy();
              return;
            }
            if (res.destroyed) return; // the caller is gone (killed while its answer was held)
            res.writeHead(answer.status, { 'Content-Type': 'application/hal+json', ...answer.headers });
            res.end(JSON.stringify(answer.body));
          });
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `https://127.0.0.1:${port}`;
  return {
    apiUrl: `https://127.0.0.1:${port}/v2/`,
    close: () =>
      new Promise<void>((resolve) => {
        fake.releaseHeld();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
