import { existsSync, readFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { listenForRequests } from '../../src/http/listen';

/** The kernel's count of connections dropped because a listening socket's queue was full (Linux). */
function listenOverflows(): number {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const header = lines.findIndex((line) => line.startsWith('TcpExt:'));
  const names = (lines[header] ?? '').split(/\s+/);
  const values = (lines[header + 1] ?? '').split(/\s+/);
  return Number(values[names.indexOf('ListenOverflows')]);
}

const onLinux = existsSync('/proc/net/netstat') ? it : it.skip;

describe('listening for requests', () => {
  onLinux(
    'When a thousand connections arrive before the server accepts any, then the kernel queues them all: none is dropped for its ' +
      'sender to retry a second later',
    async () => {
      const { server } = await listenForRequests((_req, res) => res.end('OK'), { port: 0 });
      const port = (server.address() as AddressInfo).port;
      const before = listenOverflows();
      // All connect in this turn of the event loop; the server accepts none of them before it ends.
      const sockets = Array.from({ length: 1000 }, () => net.connect(port, '127.0.0.1'));
      try {
        await Promise.all(sockets.map((socket) => new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject))));
        await new Promise<void>((resolve) => {
          const accepted = () => server.getConnections((_error, count) => (count >= sockets.length ? resolve() : setTimeout(accepted, 20)));
          accepted();
        });
        expect(listenOverflows() - before).toBe(0);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});
