import { Query } from '@nestjs/cqrs';
import type { Principal } from '@app/domain';

/** The webhook secret the merchant's, or acting for it the seller account's, callbacks are signed with now. */
export class GetWebhookSecretQuery extends Query<string | undefined> {
  constructor(readonly principal: Principal) {
    super();
  }
}
