import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * Connections the kernel may hold before we accept them. Node's default, 511, overflowed when a
 * provider sent a thousand webhook calls at once: the dropped connections were retried by their
 * senders a second later, and so answered a second late. The kernel caps it at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 4096;

/** Starts answering HTTP on `port` (0 picks a free one) with room for a burst of connections. */
export function listenForRequests(handler: RequestListener, port: number, onListening: () => void): Server {
  return createServer(handler).listen({ port, backlog: LISTEN_BACKLOG }, onListening);
}
