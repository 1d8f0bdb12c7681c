import { Writable } from 'node:stream';
import { type RunningApp, startApp } from '../support/app';
import { registerMerchant } from '../support/fixtures';
import { call } from '../support/http';

/**
 * A request the service holds while it waits (here read-your-writes, on an API process without a
 * projector, so each wait runs out) is answered however long that is: HTTP_REQUEST_TIMEOUT_MS bounds
 * only how long a client may take to send one (docs/operations/running.md#timeouts). It used to cut a
 * connection that long silent too, under the waiting request. No timing is checked: the log says the
 * request waited out a READ_YOUR_WRITES_TIMEOUT_MS six times HTTP_REQUEST_TIMEOUT_MS.
 */
describe('a request that waits longer than a client may take to send one', () => {
  let running: RunningApp;
  let log = '';

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    running = await startApp({
      env: { ROLE: 'api', LOG_LEVEL: 'warn', READ_YOUR_WRITES_TIMEOUT_MS: '3000', HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '500' },
      logDestination: sink,
    });
  });

  afterAll(() => running?.close());

  it('is answered, not cut', async () => {
    const merchant = await registerMerchant(running.baseUrl);
    const balance = await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: { 'x-api-secret': merchant.apiSecret, 'x-request-id': 'req-waits-1' } });
    expect(balance.status).toBe(200);
    expect(balance.body.data).toMatchObject({ currency: 'ETB', available: 0 });
    expect(log).toContain('read models did not catch up within READ_YOUR_WRITES_TIMEOUT_MS (request req-waits-1)');
  });
});
