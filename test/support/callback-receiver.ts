import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A merchant's callback endpoint on a free local port: it keeps every request it gets and answers 200,
 * or the statuses queued in `answers` first; a test that must answer otherwise (late, never, while it
 * kills the worker) sets `respond`.
 */
export class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  answers: number[] = [];
  respond: (callback: ReceivedCallback, response: ServerResponse) => void = (_, response) => {
    response.writeHead(this.answers.shift() ?? 200).end();
  };
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const callback = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.received.push(callback);
      this.respond(callback, response);
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callbacks`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
