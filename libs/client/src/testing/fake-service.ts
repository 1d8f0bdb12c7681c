import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What the fake answers to the nth request (from 0): an answer, or 'drop' to close the connection with no answer. */
export type Script = (request: ReceivedRequest, index: number) => Answer | 'drop';

export const problem = (status: number, code: string, message = `Refused: ${code}`): Answer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': `req-${code}` },
  body: { status: 'error', timestamp: new Date().toISOString(), path: '/v1/…', message, error: { code, message } },
});

export const success = (data: unknown, status = 200): Answer => ({
  status,
  body: { status: 'success', timestamp: new Date().toISOString(), message: 'OK', data },
});

/** A local HTTP server standing in for the service: it records every request and answers from a script. */
export class FakeService {
  readonly requests: ReceivedRequest[] = [];
  private server?: Server;
  private script: Script = () => success({});

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  answer(script: Script): this {
    this.requests.length = 0;
    this.script = script;
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const received = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        this.requests.push(received);
        const answer = this.script(received, this.requests.length - 1);
        if (answer === 'drop') return void req.socket.destroy();
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
