import { Command } from '@nestjs/cqrs';
import type { Account } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { UpdateAccountDto } from './update-account.dto';

export class UpdateAccountCommand extends Command<Account> {
  constructor(
    readonly merchantId: string,
    readonly accountId: string,
    readonly request: UpdateAccountDto,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
