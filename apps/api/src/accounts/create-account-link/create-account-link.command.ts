import { Command } from '@nestjs/cqrs';
import type { Principal } from '@app/domain';
import type { CreateAccountLinkDto } from './create-account-link.dto';

/** A one-time link to the hosted onboarding page for one of the platform's accounts; the result is its token and when it expires. */
export class CreateAccountLinkCommand extends Command<{ token: string; expiresAt: Date }> {
  constructor(
    /** Who calls: the account must be one it may redirect (authority.ts), its own. */
    readonly principal: Principal,
    readonly platformId: string,
    readonly request: CreateAccountLinkDto,
  ) {
    super();
  }
}
