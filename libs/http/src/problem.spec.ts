import { DomainError } from '@app/domain';
import { prefersProblemDetails, renderProblem, toProblem } from './problem';

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

describe('renderProblem', () => {
  const envelope = { status: 'error' as const, timestamp: '2026-11-26T09:30:00.000Z', path: '/v1/trdp/escrow/x', message: 'Escrow x was not found', error: { code: 'ABC_001', message: 'Escrow x was not found' } };

  it.each([
    [undefined, false],
    ['*/*', false],
    ['application/*', false],
    ['application/json', false],
    ['application/json, application/problem+json;q=0.5', false],
    ['application/problem+json;q=0', false],
    ['application/problem+json', true],
    ['Application/Problem+JSON', true],
    ['application/problem+json, application/json', true],
    ['application/json;q=0.9, application/problem+json', true],
    ['application/problem+json;q=0.5, */*;q=0.1', true],
  ])('Accept %p asks for problem details: %p', (accept, expected) => {
    expect(prefersProblemDetails(accept)).toBe(expected);
  });

  it('sends the envelope unchanged as application/json unless asked, and problem details made of it otherwise', () => {
    expect(renderProblem(404, envelope, 'application/json')).toEqual({ contentType: 'application/json; charset=utf-8', payload: envelope });
    expect(renderProblem(404, envelope, 'application/problem+json')).toEqual({
      contentType: 'application/problem+json; charset=utf-8',
      payload: { type: 'urn:escrow-ledger:problem:ABC_001', title: 'Not Found', status: 404, detail: envelope.error.message, instance: envelope.path, code: 'ABC_001', timestamp: envelope.timestamp, path: envelope.path, message: envelope.message, error: envelope.error },
    });
  });
});
