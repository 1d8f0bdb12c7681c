import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { Agent, request } from 'undici';
import { CallbackSender } from './callback-sender';

/**
 * The check at delivery, behind the one at creation (libs/http/src/callback-url.ts): whatever URL
 * got stored, a sender that refuses private addresses never connects to one, by literal address or by
 * a name that resolves to one, and the attempt records why.
 */
describe('CallbackSender with private addresses refused', () => {
  let server: Server;
  let port: number;
  let received = 0;
  const sender = new CallbackSender({ allowPrivateAddresses: false, timeoutMs: 2_000 });
  const allowing = new CallbackSender({ allowPrivateAddresses: true, timeoutMs: 2_000 });

  beforeAll(async () => {
    server = createServer((request, response) => {
      received += 1;
      request.resume();
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await Promise.all([sender.close(), allowing.close()]);
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]'])('never contacts %s, and says it is a private address', async (host) => {
    const result = await sender.send(`http://${host}:${port}/callbacks`, {}, '{}');
    expect(result).toMatchObject({ error: expect.stringMatching(/private address/) });
    expect(result.statusCode).toBeUndefined();
    expect(received).toBe(0);
  });

  it('refuses a private address written in the URL at every attempt, not only the first', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await sender.send(`http://127.0.0.1:${port}/again`, {}, '{}')).toMatchObject({ error: expect.stringMatching(/private address/) });
    }
    expect(received).toBe(0);
  });

  it('delivers to the same receiver where private addresses are allowed (local development)', async () => {
    const result = await allowing.send(`http://127.0.0.1:${port}/callbacks`, {}, '{}');
    expect(result).toMatchObject({ statusCode: 200, response: 'ok' });
    expect(received).toBe(1);
  });
});

/** What a receiver's answer makes of an attempt: its status, Retry-After and first KiB, and its own deadline. */
describe('CallbackSender answers', () => {
  const sender = new CallbackSender({ allowPrivateAddresses: true, timeoutMs: 10_000 });
  // Short enough for a test, long enough for a receiver on a loaded machine to send its status first.
  const HURRIED_MS = 1_000;
  const hurried = new CallbackSender({ allowPrivateAddresses: true, timeoutMs: HURRIED_MS });
  let server: Server;
  let base: string;
  let answer: (request: IncomingMessage, response: ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((request, response) => answer(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await Promise.all([sender.close(), hurried.close()]);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("keeps the answer's first KiB and its Retry-After", async () => {
    answer = (request, response) => request.resume().on('end', () => response.writeHead(503, { 'retry-after': '7' }).end('é'.repeat(3000)));
    const result = await sender.send(`${base}/cb?x=1`, {}, '{}');
    expect(result).toMatchObject({ statusCode: 503, retryAfter: '7' });
    expect(Buffer.byteLength(result.response!)).toBe(1024);
    expect(result.error).toBeUndefined();
  });

  it('answers without an excerpt when the receiver says nothing', async () => {
    answer = (request, response) => request.resume().on('end', () => response.writeHead(204).end());
    const result = await sender.send(base, {}, '{}');
    expect(result).toEqual({ statusCode: 204, retryAfter: undefined, latencyMs: expect.any(Number) });
  });

  it('stops reading an answer past 64 KiB, the status and excerpt kept', async () => {
    answer = (request, response) => {
      request.resume();
      response.writeHead(200);
      const chunk = 'x'.repeat(16 * 1024);
      const more = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', more);
      };
      more();
    };
    const result = await sender.send(base, {}, '{}');
    expect(result).toMatchObject({ statusCode: 200, response: 'x'.repeat(1024) });
  });

  it("a receiver that never answers: 'timed out' at the callback timeout", async () => {
    answer = (request) => request.resume();
    const result = await hurried.send(base, {}, '{}');
    expect(result).toMatchObject({ error: 'timed out' });
    expect(result.statusCode).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(HURRIED_MS - 5);
    expect(result.latencyMs).toBeLessThan(HURRIED_MS + 5_000);
  });

  it('a receiver that stalls after its status has answered: what arrived is the excerpt', async () => {
    answer = (request, response) => request.resume().on('end', () => response.writeHead(200).write('partial'));
    const result = await hurried.send(base, {}, '{}');
    expect(result).toMatchObject({ statusCode: 200, response: 'partial' });
    expect(result.error).toBeUndefined();
  });

  it('a refused connection says so', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await sender.send(`http://127.0.0.1:${port}/`, {}, '{}');
    expect(result).toMatchObject({ error: 'ECONNREFUSED' });
  });
});

/** docs/concepts/callbacks.md: what is signed is the exact bytes sent; the request is byte for byte the one undici's request() writes. */
describe('CallbackSender destinations', () => {
  it('sends each URL to its own path and query, however many of one origin it has sent to before', async () => {
    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(request.url ?? '');
      request.resume();
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sender = new CallbackSender({ allowPrivateAddresses: true, timeoutMs: 2_000 });
    try {
      for (const path of ['/a', '/b?x=1', '/a', '/b?x=2']) expect(await sender.send(`${base}${path}`, {}, '{}')).toMatchObject({ statusCode: 200 });
      expect(paths).toEqual(['/a', '/b?x=1', '/a', '/b?x=2']);
    } finally {
      await sender.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('CallbackSender on the wire', () => {
  it('sends what request() sends with the same method, headers and body', async () => {
    const seen: string[] = [];
    const raw = createNetServer((socket) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0);
        if (end >= 0 && text.length >= end + 4 + length) {
          seen.push(text);
          text = '';
          socket.write('HTTP/1.1 204 No Content\r\n\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/hooks/payments?tenant=a%20b`;
    const headers = { 'x-timestamp': '1732960000000', 'x-signature': 'ab'.repeat(32), 'x-delivery-id': 'dlv_1' };
    const body = JSON.stringify({ billRefNo: 'ORD-1', status: 'PAID', message: 'paid: é ✓', amount: 1000.5 });
    const sender = new CallbackSender({ allowPrivateAddresses: true, timeoutMs: 2_000 });
    const agent = new Agent();
    try {
      expect(await sender.send(url, headers, body)).toMatchObject({ statusCode: 204 });
      const reference = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'escrow-ledger-callbacks/1', ...headers }, body, dispatcher: agent });
      await reference.body.dump();
      expect(seen).toHaveLength(2);
      expect(seen[0]).toBe(seen[1]);
      expect(seen[0]).toContain(`\r\n\r\n${Buffer.from(body).toString('latin1')}`);
    } finally {
      await Promise.all([sender.close(), agent.close()]);
      await new Promise((resolve) => raw.close(resolve));
    }
  });
});
