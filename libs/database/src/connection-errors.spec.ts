import { isConnectionError } from './connection-errors';

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
