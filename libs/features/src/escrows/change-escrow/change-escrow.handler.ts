import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDeciderFor, escrowOutline, may, type Principal, storedId, streams, UnknownAllocationMerchant } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { PartyRelations } from '@app/onboarding';
import type { AuthenticatedMerchant } from '@app/credentials';
import { ChangeEscrowCommand, type EscrowChange } from '@app/contract';

/**
 * A reversal debits the allocation's payee (authority/authority.ts): the caller must have the authority
 * to debit it now, whoever was credited when the escrow was created (a merchant that has since revoked
 * its link, or an escrow stored before links, whose payee was a merchant the creator had no link to).
 */
@CommandHandler(ChangeEscrowCommand)
export class ChangeEscrowHandler implements ICommandHandler<ChangeEscrowCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ principal, merchant, escrowId, build, metadata }: ChangeEscrowCommand): Promise<EscrowChange> {
    // The object's own clock: a test clock's time for one attached to it (docs/concepts/time.md).
    const clock = await this.clocks.ofStream(streams.escrow(escrowId));
    const decider = escrowDeciderFor(principal, merchant.idSalt);
    const command = build(clock.clock.now().toISOString());
    const known = command.type === 'ReverseAllocation' ? await this.assertMayDebit(principal, merchant, escrowId, command.data.allocation) : undefined;
    const { state, at } = await this.runner.run(streams.escrow(escrowId), decider, command, onClock(metadata, clock), known);
    return { escrow: escrowOutline(state)!, at };
  }

  private async assertMayDebit(principal: Principal, merchant: AuthenticatedMerchant, escrowId: string, allocation: string) {
    const known = await this.runner.read(streams.escrow(escrowId), escrowDeciderFor(principal, merchant.idSalt));
    const payee = storedId(known.state, allocation, merchant.idSalt);
    const own = known.state.created?.merchantId === merchant.merchantId && known.state.allocations.some((a) => a.merchantId === payee);
    if (own && !may(principal, 'debit', await this.relations.relationOf(principal, payee))) throw new UnknownAllocationMerchant(allocation);
    return known;
  }
}
