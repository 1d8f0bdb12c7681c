import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { Mode } from '@app/domain';
import type { TenantCredentials } from '../register-merchant/register-merchant.command';

export interface OpenedOtherMode extends TenantCredentials {
  mode: Mode;
  /** The tenant it is the other mode of. */
  twinId: string;
}

/** A merchant registered before modes gets the tenant of its other mode (docs/guides/test-to-live.md). */
export class OpenOtherModeCommand extends Command<OpenedOtherMode> {
  constructor(
    readonly merchantId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
