import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  answeredWith: number;
}

/**
 * A client's webhook endpoint on loopback that answers with scripted statuses (the last one
 * repeats), recording every call with its raw body. `host` is the loopback address it listens on.
 */
export async function startReceiver(
  statuses: number[],
  { host = '127.0.0.1' } = {},
): Promise<{ url: string; port: number; calls: ReceivedCall[]; close(): Promise<void> }> {
  const calls: ReceivedCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = statuses[Math.min(calls.length, statuses.length - 1)] ?? 200;
      calls.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answeredWith: status });
      res.statusCode = status;
      if (status >= 300 && status < 400) res.setHeader('Location', '/elsewhere');
      res.end(status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/hooks/payments`,
    port,
    calls,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
