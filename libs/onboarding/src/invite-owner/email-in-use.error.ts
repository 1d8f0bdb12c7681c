import { DomainError } from '@app/domain';

/** Registering a merchant (or inviting its owner) with an e-mail another merchant signs in with. */
export class EmailInUse extends DomainError {
  constructor() {
    super('EMAIL_IN_USE', 'Another merchant already signs in with this e-mail', 'conflict');
  }
}
