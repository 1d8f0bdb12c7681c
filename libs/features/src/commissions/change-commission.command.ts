import { Command } from '@nestjs/cqrs';
import type { CommissionAttributes, CommissionRule, CommissionState, Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/** The rule after the change, and each part it changed with its value before (API names; null: none). */
export interface ChangedCommission {
  state: CommissionState;
  previousAttributes: Partial<CommissionAttributes>;
}

/** `rule` null: remove it (an override: the platform's default applies again; the default: no commission). */
export class ChangeCommissionCommand extends Command<ChangedCommission> {
  constructor(
    readonly principal: Principal,
    readonly platformId: string,
    /** The seller whose override it is; undefined: the platform's default. */
    readonly accountId: string | undefined,
    readonly rule: CommissionRule | null,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
