import { Query } from '@nestjs/cqrs';

/** The webhook secret the merchant's, or acting for it the seller account's, callbacks are signed with now. */
export class GetWebhookSecretQuery extends Query<string | undefined> {
  constructor(readonly merchantId: string) {
    super();
  }
}
