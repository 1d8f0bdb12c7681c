/**
 * Limits (issue 8, item 4): bodies over BODY_LIMIT_BYTES are a 413 problem and write nothing, on
 * every POST route and however the body is framed; slow clients (a head or a body trickled in, a
 * connection that says nothing, an idle keep-alive connection) are cut off by the server's timeouts.
 * The timeouts are shortened through configuration; no timing is checked: the test waits for the close.
 */
import { connect, type Socket } from 'node:net';
import { BODY_LIMIT_BYTES, servedRoutes } from '../../apps/api/src/app.factory';
import { ConfigError, loadConfig } from '@app/config';
import { type RunningApp, startApp } from '../support/app';
import { countWrites, orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { untilTestEnds } from '../support/wait';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
// Short enough to wait for, long enough that a loaded machine answers the suite's own requests in time.
const TIMEOUTS = { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '4000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000' };

interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** Whether the server closed it (rather than its test ending first). */
  closedByServer: boolean;
}

/**
 * Opens a raw connection, sends `parts` one after another `gapMs` apart (repeating the last one
 * for as long as the connection stays open), and reports what came back before the server closed it.
 * A server that never closes it holds the test until jest's timeout, which stops the trickle.
 */
function trickle(baseUrl: string, parts: string[], gapMs: number, repeatLast = true): Promise<RawExchange> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), '127.0.0.1');
    let received = '';
    let index = 0;
    const done = untilTestEnds(() => `the server to close the connection (received so far: ${JSON.stringify(received)})`, () => finish(false));
    const timer = setInterval(() => {
      if (socket.destroyed) return;
      const part = parts[Math.min(index, parts.length - 1)];
      if (index < parts.length || repeatLast) socket.write(part);
      index += 1;
    }, gapMs);
    function finish(closedByServer: boolean) {
      done();
      clearInterval(timer);
      socket.destroy();
      resolve({ received, closedByServer });
    }
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
  });
}

describe('limits', () => {
  let running: RunningApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    running = await startApp({ env: TIMEOUTS });
    merchant = await registerMerchant(running.baseUrl, 'Limits Shop');
  });
  afterAll(async () => running?.close());

  const db = () => running.schema!.client;

  describe(`a body over ${BODY_LIMIT_BYTES} bytes`, () => {
    const oversized = () => JSON.stringify({ ...orderRequest(), description: 'x'.repeat(BODY_LIMIT_BYTES) });

    it('is a 413 problem on every POST route, with or without credentials, and nothing is written', async () => {
      // The queue dashboard (Bull Board) refuses anyone without the admin key before it reads a body at all.
      const posts = servedRoutes(running.app).filter((route) => route.method === 'POST' && !route.url.startsWith('/admin/queues'));
      expect(posts.length).toBeGreaterThan(10);
      const wrong: string[] = [];
      for (const { url } of posts) {
        const path = url.replace(/:\w+/g, 'x');
        for (const headers of [{}, { 'x-api-secret': merchant.apiSecret }] as Array<Record<string, string>>) {
          const before = await countWrites(db());
          const res = await fetch(`${running.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: oversized() });
          const text = await res.text();
          const problem = /^application\/json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined;
          if (res.status !== 413 || problem?.error?.code !== 'PAYLOAD_TOO_LARGE' || problem.path !== path || !ISO.test(problem.timestamp)) {
            wrong.push(`POST ${path}: ${res.status} ${res.headers.get('content-type')} ${text.slice(0, 160)}`);
          }
          if (JSON.stringify(await countWrites(db())) !== JSON.stringify(before)) wrong.push(`POST ${path}: wrote something`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it('is a 413 when sent chunked, without a content-length to refuse it by', async () => {
      const before = await countWrites(db());
      const body = oversized();
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < body.length; i += 16_384) controller.enqueue(new TextEncoder().encode(body.slice(i, i + 16_384)));
          controller.close();
        },
      });
      const res = await fetch(`${running.baseUrl}/v1/trdp/order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-secret': merchant.apiSecret },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(await countWrites(db())).toEqual(before);
    });

    it('is the limit: a body just under it is read and judged on its content', async () => {
      const padding = BODY_LIMIT_BYTES - JSON.stringify({ ...orderRequest(), metadata: { pad: '' } }).length - 16;
      const res = await fetch(`${running.baseUrl}/v1/trdp/order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-secret': merchant.apiSecret },
        body: JSON.stringify({ ...orderRequest(), metadata: { pad: 'x'.repeat(padding) } }),
      });
      // Read, then refused for what it says: metadata over its own 8 KiB bound.
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/metadata/);
    });
  });

  describe('slow clients are cut off', () => {
    it('a request head sent a line at a time, never finished: 408, connection closed', async () => {
      const { received, closedByServer } = await trickle(running.baseUrl, ['POST /v1/trdp/order HTTP/1.1\r\nHost: localhost\r\n', 'X-Slow: 1\r\n'], 100);
      expect(closedByServer).toBe(true);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    });

    it('a body trickled in a byte at a time: 408, connection closed, nothing written', async () => {
      const before = await countWrites(db());
      const head = `POST /v1/trdp/order HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-Api-Secret: ${merchant.apiSecret}\r\nContent-Length: 100000\r\n\r\n`;
      const { received, closedByServer } = await trickle(running.baseUrl, [head, ' '], 100);
      expect(closedByServer).toBe(true);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(await countWrites(db())).toEqual(before);
    });

    it('a connection that sends nothing is closed', async () => {
      const { closedByServer } = await trickle(running.baseUrl, [''], 100);
      expect(closedByServer).toBe(true);
    });

    it('an idle keep-alive connection is closed after the advertised keep-alive timeout', async () => {
      const { received, closedByServer } = await trickle(running.baseUrl, ['GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n'], 100, false);
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(received).toMatch(/\r\nKeep-Alive: timeout=2\r\n/i);
      expect(closedByServer).toBe(true);
    });
  });

  it('the timeouts are configuration with production defaults, and a head may not outlast its request', () => {
    const base = { SECRETS_KEY: '11'.repeat(32), DATA_DIR: '/tmp/limits-config' };
    expect(loadConfig(base).httpTimeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000 });
    expect(loadConfig({ ...base, ...TIMEOUTS }).httpTimeouts).toEqual({ headersMs: 1000, requestMs: 4000, keepAliveMs: 2000 });
    expect(() => loadConfig({ ...base, HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' })).toThrow(ConfigError);
  });
});
