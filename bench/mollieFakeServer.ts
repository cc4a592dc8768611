import { createServer } from 'node:http';
import { MollieFake } from '../fakes/mollie/fake';
import { serveOverHttps } from '../fakes/mollie/https';

/**
 * The Mollie fake in a process of its own, so its TLS work does not run in the benchmark's event
 * loop (which measures answer times). Prints `{"apiUrl","controlUrl"}` on its first line; the
 * control address takes `POST /pay-all` (every payment paid, as if each payer paid).
 */
async function main(): Promise<void> {
  const fake = new MollieFake('');
  const mollie = await serveOverHttps(fake);
  const control = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/pay-all') {
      let count = 0;
      for (const id of fake.payments.keys()) {
        fake.setPaymentStatus(id, 'paid');
        count += 1;
      }
      res.end(JSON.stringify({ paid: count }));
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const address = control.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ apiUrl: mollie.apiUrl, controlUrl: `http://127.0.0.1:${port}` })}\n`);
  process.on('SIGTERM', () => {
    control.close();
    void mollie.close().then(() => process.exit(0));
  });
}

void main();
