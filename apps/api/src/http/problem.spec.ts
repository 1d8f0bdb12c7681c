import { DomainError } from '@app/domain';
import { toProblem } from './problem';

describe('toProblem', () => {
  it('answers a connection PostgreSQL cut under the request with 503 DATABASE_UNAVAILABLE and Retry-After', () => {
    // What node-postgres rejects with when pg_terminate_backend (or a restart) ends the connection.
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    for (const error of [terminated, reset, new Error('Connection terminated unexpectedly')]) {
      const answer = toProblem(error, '/v1/trdp/verify');
      expect(answer).toMatchObject({ statusCode: 503, headers: { 'retry-after': '1' }, body: { error: { code: 'DATABASE_UNAVAILABLE' } } });
      expect(answer.body.message).not.toContain('ECONNRESET');
    }
  });

  it('keeps 500 GEN_004 for an error in a statement, and its own code for a refusal of the domain', () => {
    const badStatement = Object.assign(new Error('column "x" does not exist'), { code: '42703' });
    expect(toProblem(badStatement, '/x')).toMatchObject({ statusCode: 500, body: { error: { code: 'GEN_004' } }, unexpected: true });
    expect(toProblem(new DomainError('ESCROW_NOT_FUNDED', 'not paid', 'conflict'), '/x')).toMatchObject({ statusCode: 409, body: { error: { code: 'ESCROW_NOT_FUNDED' } } });
  });
});
