import { Command } from '@nestjs/cqrs';
import type { Account, RequirementDue, VerificationDecider } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/** The operator's staff ask an account for documents, each by a due instant (replacing what they asked before). */
export class RequestAccountInformationCommand extends Command<Account> {
  constructor(
    readonly accountId: string,
    readonly requirements: RequirementDue[],
    readonly reason: string | undefined,
    readonly decidedBy: VerificationDecider,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
