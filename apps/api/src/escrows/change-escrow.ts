import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type EscrowCommand, escrowDeciderFor, escrowOutline, streams } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import type { AuthenticatedMerchant } from '@app/credentials';
import { EscrowCommandBase, type EscrowChange } from './escrow-command';

/**
 * A merchant's command on its escrow that needs nothing but the decider: the domain command, built
 * at the instant it is run (moving the automatic release, opening or resolving a dispute).
 */
export class ChangeEscrowCommand extends EscrowCommandBase {
  constructor(
    merchant: AuthenticatedMerchant,
    escrowId: string,
    readonly build: (at: string) => EscrowCommand,
    metadata: EventMetadata,
  ) {
    super(merchant, escrowId, metadata);
  }
}

@CommandHandler(ChangeEscrowCommand)
export class ChangeEscrowHandler implements ICommandHandler<ChangeEscrowCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchant, escrowId, build, metadata }: ChangeEscrowCommand): Promise<EscrowChange> {
    const { state, at } = await this.runner.run(streams.escrow(escrowId), escrowDeciderFor(merchant.idSalt), build(this.clock.now().toISOString()), metadata);
    return { escrow: escrowOutline(state)!, at };
  }
}
