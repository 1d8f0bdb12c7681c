import { DomainError } from '@app/domain';

/** An account link's returnUrl or refreshUrl the callback address rules refuse (libs/http/src/callback-url.ts). */
export class AccountLinkUrlRefused extends DomainError {
  constructor(field: 'returnUrl' | 'refreshUrl', reason: string) {
    super('ACCOUNT_LINK_URL_REFUSED', `${field} is refused: ${reason}`, 'invalid');
  }
}
