import { Writable } from 'node:stream';
import { startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, withSellers } from '../support/fixtures';
import { call } from '../support/http';

/** A run of the service writing its JSON logs at `level` into a string; the secrets it handed out, to search for. */
async function loggedRun(level: 'info' | 'debug'): Promise<{ output: string; secrets: string[] }> {
  let output = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const running = await startApp({ env: { LOG_LEVEL: level, SANDBOX_DELAY_MS: '30' }, logDestination: sink });
  const secrets: string[] = [TEST_ADMIN_KEY];
  try {
    const merchant = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Logged' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const { apiSecret, webhookSecret } = merchant.body.data;
    secrets.push(apiSecret, webhookSecret);
    const headers = { 'x-api-secret': apiSecret, 'x-request-id': 'req-logging-1' };
    await withSellers(running.baseUrl, { apiSecret });
    const escrow = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', {
      body: { ...escrowRequest({ callbackURL: 'http://127.0.0.1:9/unreachable' }), api_secret: apiSecret },
      headers,
    });
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrow.body.data.escrowId}/complete`, { body: { outcome: 'PAID' }, headers: { 'x-api-secret': apiSecret } });
    const rotated = await call(running.baseUrl, 'POST', '/v1/trdp/webhook-secret/rotate', { headers: { 'x-api-secret': apiSecret } });
    secrets.push(rotated.body.data.webhookSecret);
    const auditor = await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    secrets.push(auditor.body.data.auditorKey);
    await call(running.baseUrl, 'GET', '/v1/audit/integrity', { headers: { 'x-auditor-key': auditor.body.data.auditorKey } });
    await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: 'nope' }, headers: { 'x-api-secret': 'sk_wrong-secret' } });
    const events = JSON.stringify(await running.schema!.client.query(`SELECT data, metadata FROM events`));
    for (const secret of secrets) expect(events).not.toContain(secret);
  } finally {
    await running.close();
  }
  return { output, secrets: [...secrets, 'sk_wrong-secret'] };
}

const linesOf = (output: string) => output.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);

it('logs a short JSON line per request (method, path, status, time, id) and nothing of Nest’s start-up narration at info', async () => {
  const { output, secrets } = await loggedRun('info');
  const lines = linesOf(output);
  const escrowLine = lines.find((line) => line.req?.url === '/v1/trdp/escrow/order');
  expect(escrowLine).toMatchObject({ req: { id: 'req-logging-1', method: 'POST' }, correlationId: 'req-logging-1', res: { statusCode: 201 }, responseTime: expect.any(Number) });
  expect(escrowLine!.req.headers).toBeUndefined();
  expect(escrowLine!.res.headers).toBeUndefined();
  expect(lines.filter((line) => ['RouterExplorer', 'RoutesResolver', 'InstanceLoader'].includes(line.context))).toEqual([]);
  for (const secret of secrets) expect(output).not.toContain(secret);
});

it('adds the headers and the start-up narration at debug, credentials redacted', async () => {
  const { output, secrets } = await loggedRun('debug');
  const lines = linesOf(output);
  expect(lines.some((line) => line.context === 'RouterExplorer' && line.level === 20)).toBe(true);
  const escrowLine = lines.find((line) => line.req?.url === '/v1/trdp/escrow/order');
  expect(escrowLine!.req.headers['x-api-secret']).toBe('[Redacted]');
  expect(escrowLine!.res.headers['content-type']).toContain('application/json');
  for (const secret of secrets) expect(output).not.toContain(secret);
});
