import { Command } from '@nestjs/cqrs';
import type { Principal } from '@app/domain';

/** What the handler reads of the request: the REST edge's CreateAccountLinkDto validates and documents it. */
export interface CreateAccountLinkRequest {
  accountId: string;
  returnUrl: string;
  refreshUrl: string;
}

/** A one-time link to the hosted onboarding page for one of the platform's accounts; the result is its token and when it expires. */
export class CreateAccountLinkCommand extends Command<{ token: string; expiresAt: Date }> {
  constructor(
    /** Who calls: the account must be one it may redirect (authority.ts), its own. */
    readonly principal: Principal,
    readonly platformId: string,
    readonly request: CreateAccountLinkRequest,
  ) {
    super();
  }
}
