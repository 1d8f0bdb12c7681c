import { retryAfterMs, retryingFetch } from './retrying-fetch';

describe('retryingFetch', () => {
  it('reads Retry-After as seconds or as an HTTP date, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-26T09:30:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 26 Nov 2026 09:30:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 26 Nov 2026 09:29:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('stops waiting for the next attempt when the call is aborted', async () => {
    const attempts: Request[] = [];
    const fetchImpl = async (request: Request) => {
      attempts.push(request);
      return new Response('{}', { status: 503, headers: { 'retry-after': '10' } });
    };
    const controller = new AbortController();
    const call = retryingFetch(fetchImpl as typeof fetch)('http://ledger.test/v1/trdp/escrow/esc_1', { signal: controller.signal });
    // Aborted while it waits the ten seconds the answer asked for.
    setImmediate(() => controller.abort());
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(attempts).toHaveLength(1);
  });

  it('sends each attempt the same method, headers and body', async () => {
    const seen: string[] = [];
    const fetchImpl = async (request: Request) => {
      seen.push(`${request.method} ${request.headers.get('idempotency-key')} ${await request.text()}`);
      return new Response('{}', { status: seen.length < 3 ? 500 : 201 });
    };
    const response = await retryingFetch(fetchImpl as typeof fetch, { baseDelayMs: 1 })('http://ledger.test/v1/trdp/order', { method: 'POST', headers: { 'Idempotency-Key': 'k-1' }, body: '{"amount":1}' });
    expect(response.status).toBe(201);
    expect(seen).toEqual(['POST k-1 {"amount":1}', 'POST k-1 {"amount":1}', 'POST k-1 {"amount":1}']);
  });
});
