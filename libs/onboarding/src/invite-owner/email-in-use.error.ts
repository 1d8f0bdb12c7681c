import { DomainError } from '@app/domain';

export class EmailInUse extends DomainError {
  constructor() {
    super('EMAIL_IN_USE', 'Another merchant already signs in with this e-mail', 'conflict');
  }
}
