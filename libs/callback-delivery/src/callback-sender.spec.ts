import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('delivers to the same receiver where private addresses are allowed (local development)', async () => {
    const result = await allowing.send(`http://127.0.0.1:${port}/callbacks`, {}, '{}');
    expect(result).toMatchObject({ statusCode: 200, response: 'ok' });
    expect(received).toBe(1);
  });
});
