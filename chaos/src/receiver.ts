import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { verifyCallback } from '@app/callback-receiver';
import type { ReceivedCallback } from './records';

export interface CallbackReceiver {
  /** The callback URL for one merchant's orders: the path names whose webhook secret signs them. */
  urlFor(merchantId: string): string;
  trust(merchantId: string, webhookSecret: string): void;
  readonly received: ReceivedCallback[];
  close(): Promise<void>;
}

/**
 * A merchant's server that is not always well: per delivery it decides how many attempts to fail
 * first (answering 500, or hanging past the service's timeout), then answers 200. It verifies every
 * request with the published receiver library and records the raw body and what it answered.
 */
export async function startReceiver(options: { failureRate: number; hangMs: number }): Promise<CallbackReceiver> {
  const secrets = new Map<string, string>();
  const failuresLeft = new Map<string, number>();
  const received: ReceivedCallback[] = [];
  const hanging = new Set<ServerResponse>();

  const answer = (deliveryId: string | undefined): ReceivedCallback['answer'] => {
    if (!deliveryId) return 'ok';
    if (!failuresLeft.has(deliveryId)) failuresLeft.set(deliveryId, Math.random() < options.failureRate ? 1 + Math.floor(Math.random() * 2) : 0);
    const left = failuresLeft.get(deliveryId)!;
    if (left === 0) return 'ok';
    failuresLeft.set(deliveryId, left - 1);
    return Math.random() < 0.3 ? 'hang' : 'error';
  };

  const handle = (request: IncomingMessage, response: ServerResponse, body: Buffer) => {
    const path = request.url ?? '';
    const secret = secrets.get(path.split('/').pop() ?? '');
    let deliveryId: string | undefined;
    let signatureValid = false;
    try {
      deliveryId = verifyCallback(secret ?? '-', request.headers, body).deliveryId;
      signatureValid = secret !== undefined;
    } catch {
      deliveryId = (JSON.parse(body.toString('utf8')) as { deliveryId?: string }).deliveryId;
    }
    const outcome = signatureValid ? answer(deliveryId) : 'error';
    received.push({ path, deliveryId, body: body.toString('utf8'), signatureValid, answer: outcome, receivedAt: Date.now() });
    if (outcome === 'ok') return response.end('ok');
    if (outcome === 'error') {
      response.statusCode = signatureValid ? 500 : 401;
      return response.end('not now');
    }
    hanging.add(response);
    setTimeout(() => {
      hanging.delete(response);
      response.destroy();
    }, options.hangMs).unref();
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        handle(request, response, Buffer.concat(chunks));
      } catch {
        received.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8'), signatureValid: false, answer: 'error', receivedAt: Date.now() });
        response.statusCode = 400;
        response.end();
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    urlFor: (merchantId) => `${base}/callbacks/${merchantId}`,
    trust: (merchantId, webhookSecret) => secrets.set(merchantId, webhookSecret),
    received,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
