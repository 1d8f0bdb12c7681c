import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CredentialStore } from '@app/credentials';
import { redirectedParty } from '@app/domain';
import { GetWebhookSecretQuery } from './get-webhook-secret.query';

/** A seller account gets its secret on first ask (accounts made before they had secrets included); a merchant's was issued at registration. */
@QueryHandler(GetWebhookSecretQuery)
export class GetWebhookSecretHandler implements IQueryHandler<GetWebhookSecretQuery> {
  constructor(@Inject(CredentialStore) private readonly credentials: CredentialStore) {}

  execute({ principal }: GetWebhookSecretQuery): Promise<string | undefined> {
    const party = redirectedParty(principal);
    return party.account ? this.credentials.accountWebhookSecret(party.id) : this.credentials.webhookSecret(party.id);
  }
}
