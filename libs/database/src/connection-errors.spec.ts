import { isConnectionError, waitingOutDisconnections } from './connection-errors';

describe('isConnectionError', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, 'the server is down'],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, 'the backend was terminated'],
    [{ code: '08006' }, 'a connection failure'],
    [{ code: '25006', message: 'cannot execute INSERT in a read-only transaction' }, 'a primary demoted to a standby under its connection'],
    [{ code: '08001', message: 'no host accepts read-write sessions' }, 'no host of the list is the primary yet (a failover)'],
    [new Error('Connection terminated unexpectedly'), 'node-postgres: the server closed the connection'],
    // Found by the chaos run: an API restarted while its migration connection was terminated exited instead of waiting.
    [new Error('Client has encountered a connection error and is not queryable'), 'node-postgres: a query on a client whose connection failed'],
  ])('%j is worth waiting out (%s)', (error: unknown, _cause: string) => {
    expect(isConnectionError(error)).toBe(true);
  });

  it.each([[{ code: '42P01', message: 'relation "x" does not exist' }], [{ code: '28P01', message: 'password authentication failed' }], [new Error('boom')], ['text'], [null]])(
    '%j is not',
    (error) => {
      expect(isConnectionError(error)).toBe(false);
    },
  );
});

describe('waitingOutDisconnections', () => {
  const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

  it('asks again while the connection drops, and answers what the attempt answers once it goes through', async () => {
    const retried: number[] = [];
    let attempts = 0;
    const answer = await waitingOutDisconnections(
      async () => {
        attempts += 1;
        if (attempts < 3) throw terminated;
        return 'carried';
      },
      { withinMs: 60_000, retrying: (_error, wait) => retried.push(wait) },
    );
    expect({ answer, attempts, retried }).toEqual({ answer: 'carried', attempts: 3, retried: [250, 500] });
  });

  it('throws an error that is not a connection error at once, and a connection error once its time is up', async () => {
    let attempts = 0;
    const refused = waitingOutDisconnections(
      async () => {
        attempts += 1;
        throw Object.assign(new Error('duplicate key value'), { code: '23505' });
      },
      { withinMs: 60_000, retrying: () => undefined },
    );
    await expect(refused).rejects.toThrow('duplicate key value');
    expect(attempts).toBe(1);
    await expect(waitingOutDisconnections(() => Promise.reject(terminated), { withinMs: 0, retrying: () => undefined })).rejects.toBe(terminated);
  });
});
