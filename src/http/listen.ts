import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';

/**
 * Connections the kernel may hold before we accept them. Node's default, 511, overflowed when a
 * provider sent a thousand webhook calls at once: the dropped connections were retried by their
 * senders a second later, and so answered a second late. The kernel caps it at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 4096;

export interface Listening {
  server: Server;
  /** Answers not yet finished. */
  inFlight(): number;
  /**
   * Stops accepting connections at once and closes idle keep-alive ones; each busy connection is
   * closed after its answer (`Connection: close`). Resolves once no connection is left.
   */
  stop(): Promise<void>;
}

/** Why the port could not be taken, in the operator's words: one line, no stack. */
export function listenFailure(error: NodeJS.ErrnoException, port: number, host: string | undefined): Error {
  const where = host ? `${host}:${port}` : `port ${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new Error(`${where} is already in use (set PORT to another port)`);
    case 'EACCES':
      return new Error(`no permission to listen on ${where} (ports below 1024 need privileges; set PORT to another port)`);
    case 'EADDRNOTAVAIL':
      return new Error(`HOST ${host} is not an address of this machine (leave HOST unset to listen on every interface)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new Error(`HOST ${host} could not be resolved to an address of this machine`);
    default:
      return new Error(`cannot listen on ${where}: ${error.message}`);
  }
}

/**
 * Starts answering HTTP on `port` (0 picks a free one) and `host` (absent: every interface) with room
 * for a burst of connections; rejects with one line when the address cannot be taken.
 */
export async function listenForRequests(handler: RequestListener, options: { port: number; host?: string }): Promise<Listening> {
  const server = createServer(handler);
  const busy = new Set<ServerResponse>();
  let stopping = false;
  // A keep-alive connection would otherwise stay open after its answer until the client or
  // keepAliveTimeout ends it, holding the shutdown back.
  const closeAfterAnswer = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('request', (_req, res: ServerResponse) => {
    busy.add(res);
    // Its headers were still arriving when the stop came: it is answered, on a closing connection.
    if (stopping) closeAfterAnswer(res);
    res.once('close', () => busy.delete(res));
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenFailure(error, options.port, options.host));
    server.once('error', failed);
    server.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', failed);
      resolve();
    });
  });
  let stopped: Promise<void> | undefined;
  return {
    server,
    inFlight: () => busy.size,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        stopping = true;
        // Closes the idle keep-alive connections too (Node 19 and later).
        server.close(() => resolve());
        for (const res of busy) closeAfterAnswer(res);
      });
      return stopped;
    },
  };
}
