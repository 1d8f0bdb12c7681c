import { Command } from '@nestjs/cqrs';
import type { LinkDecidedBy } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/** What a link command answers: the link as it stands after it. */
export interface PlatformLinkOutcome {
  merchantId: string;
  platformId: string;
  linked: boolean;
  decidedBy: LinkDecidedBy;
  since: string;
}

/**
 * A merchant (its own key) or the operator lets a platform debit and credit the merchant (`LinkPlatform`),
 * or takes that back (`RevokePlatformLink`): from then the platform may not name the merchant in a
 * transfer or a new escrow.
 */
export class DecidePlatformLinkCommand extends Command<PlatformLinkOutcome> {
  constructor(
    readonly decision: 'LinkPlatform' | 'RevokePlatformLink',
    readonly merchantId: string,
    readonly platformId: string,
    readonly decidedBy: LinkDecidedBy,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
