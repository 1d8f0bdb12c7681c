import { createServer, type Server } from 'node:http';
import type { ProviderNotification, ReceivedNotification } from '../payment-provider.port';

export interface NotificationEndpoint {
  /** Any path under it is the endpoint (each provider posts to its own). */
  baseUrl: string;
  /** What was read, in arrival order (`ignored` reports left out). */
  received: ProviderNotification[];
  /** The bodies of what was read, as they arrived. */
  bodies: string[];
  /** Refuses connections (true) or takes them again (false), on the same port. */
  setDown(down: boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * Our notification endpoint as the API serves it, for the provider contract: the adapter reads what
 * arrives (401 when it is not signed as the provider signs), and it is kept.
 */
export async function notificationEndpoint(read: (received: ReceivedNotification) => ProviderNotification | 'ignored' | undefined): Promise<NotificationEndpoint> {
  const received: ProviderNotification[] = [];
  const bodies: string[] = [];
  let port = 0;
  let server: Server | undefined;
  const listen = async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, typeof value === 'string' ? value : undefined]));
        const notification = read({ headers, body });
        if (!notification) {
          response.statusCode = 401;
          return response.end();
        }
        if (notification !== 'ignored') {
          received.push(notification);
          bodies.push(body);
        }
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.address() as { port: number }).port;
  };
  const close = async () => {
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
  };
  await listen();
  return { baseUrl: `http://127.0.0.1:${port}`, received, bodies, setDown: (down) => (down ? close() : listen()), close };
}
