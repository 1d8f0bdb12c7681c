/**
 * A rule of the business was broken. `code` is stable and documented for API clients;
 * the HTTP layer maps `kind` to a status, so the domain never knows about HTTP.
 */
export type DomainErrorKind = 'invalid' | 'conflict' | 'not_found' | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly kind: DomainErrorKind,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInput extends DomainError {
  constructor(message: string, code = 'BadRequestException') {
    super(code, message, 'invalid');
  }
}
