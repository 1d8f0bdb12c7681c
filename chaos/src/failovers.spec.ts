import type { HaCluster } from './ha-cluster';
import { checkFailovers, injectFailovers } from './failovers';
import type { Operation, ReceivedCallback } from './records';

const failover = { from: 1, to: 2, killedAt: 10_000, promotedAt: 15_000, rejoinedAt: 30_000, killsWithoutPromotion: 0 };

function operation(kind: Operation['kind'], attempts: Array<{ sentAt: number; ms: number; status?: number; code?: string }>): Operation {
  return {
    id: `op-${Math.random()}`,
    kind,
    method: kind === 'read' ? 'GET' : 'POST',
    path: '/v1/trdp/escrow/order',
    attempts: attempts.map((a, i) => ({ requestId: `req-${i}-${Math.random()}`, sentAt: a.sentAt, ms: a.ms, status: a.status, responseText: a.code ? JSON.stringify({ error: { code: a.code } }) : '' })),
  };
}

const callback = (receivedAt: number): ReceivedCallback => ({ path: '/callbacks/m-1', body: '{}', signatureValid: true, answer: 'ok', receivedAt });

const healthy = [
  operation('create-escrow', [
    { sentAt: 10_500, ms: 100, status: 503, code: 'DATABASE_UNAVAILABLE' },
    { sentAt: 16_000, ms: 200, status: 201 },
  ]),
  operation('read', [{ sentAt: 16_500, ms: 50, status: 200 }]),
];

describe('the failover check', () => {
  it('passes when writes and reads came back in time, the failures were 503 and callbacks went on', () => {
    const result = checkFailovers([failover], healthy, [callback(17_000)], 30_000);
    expect(result.problems).toEqual([]);
    expect(result.summary).toContain('writes back 6.2 s, reads back 6.5 s after the kill; 1 requests failed meanwhile (1× 503 DATABASE_UNAVAILABLE)');
  });

  it('says when the monitor promoted no node after a kill, and measures the window from the first kill', () => {
    const result = checkFailovers([{ ...failover, killsWithoutPromotion: 1 }], healthy, [callback(17_000)], 30_000);
    expect(result.problems).toEqual([]);
    expect(result.summary).toContain('promoted 5.0 s (killed 2 times: the monitor promoted no node after 1 of them), writes back 6.2 s');
  });

  it('fails a run without a failover, a window past the deadline, a 500 in the window and no callback after the promotion', () => {
    expect(checkFailovers([], healthy, [callback(17_000)], 30_000).problems).toEqual(['the run killed no primary']);
    expect(checkFailovers([failover], healthy, [callback(17_000)], 5_000).problems).toEqual([
      expect.stringContaining('the first write after the kill succeeded 6.2 s after it'),
      expect.stringContaining('the first read after the kill succeeded 6.5 s after it'),
    ]);
    const with500 = [...healthy, operation('release', [{ sentAt: 11_000, ms: 100, status: 500, code: 'GEN_004' }])];
    expect(checkFailovers([failover], with500, [callback(17_000)], 30_000).problems).toEqual([expect.stringContaining('answered 500 GEN_004 in the window, not 503')]);
    expect(checkFailovers([failover], healthy, [callback(12_000)], 30_000).problems).toEqual([expect.stringContaining('no callback delivered after the promotion')]);
    expect(checkFailovers([failover], [healthy[0]], [callback(17_000)], 30_000).problems).toEqual([expect.stringContaining('no read succeeded after the kill')]);
  });
});

describe('the failovers injected into the load', () => {
  it('keeps the clients going until the promotion is known, then for the recovery time after it', async () => {
    const load = { started: Date.now() - 20_000, until: Date.now() - 10_000 };
    let whileWaiting: number | undefined;
    const promotedAt = Date.now() + 60_000;
    const cluster = {
      failover: async () => {
        whileWaiting = load.until;
        return { ...failover, promotedAt };
      },
    } as unknown as HaCluster;

    await injectFailovers({ load, cluster, count: 1, recoveryLoadMs: 10_000, log: () => undefined });

    expect(whileWaiting).toBe(Number.POSITIVE_INFINITY);
    expect(load.until).toBe(promotedAt + 10_000);
  });
});
