import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDeciderFor, escrowOutline, may, type Principal, storedId, streams, UnknownAllocationMerchant } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { PartyRelations } from '@app/onboarding';
import { PaymentProviders, PayoutBooksDeps, reverseAllocationAtBooks } from '@app/payments';
import type { AuthenticatedMerchant } from '@app/credentials';
import { ChangeEscrowCommand, type EscrowChange } from '@app/contract';
import { refundsWhereMoneyMoves } from '../refunds-where-money-moves';

/**
 * A reversal debits the allocation's payee (authority/authority.ts): the caller must have the authority
 * to debit it now, whoever was credited when the escrow was created (a merchant that has since revoked
 * its link, or an escrow stored before links, whose payee was a merchant the creator had no link to).
 * It is decided at the payee's books (reverseAllocationAtBooks), where the payee's closing takes its turn.
 * A reversal, and a dispute's resolution that gives part back, refund the customer through the provider:
 * a live one on a deployment with no live provider is refused before anything is written (refundsWhereMoneyMoves).
 */
@CommandHandler(ChangeEscrowCommand)
export class ChangeEscrowHandler implements ICommandHandler<ChangeEscrowCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(Clocks) private readonly clocks: Clocks,
    @Inject(PayoutBooksDeps) private readonly books: PayoutBooksDeps,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
  ) {}

  async execute({ principal, merchant, escrowId, build, metadata }: ChangeEscrowCommand): Promise<EscrowChange> {
    // The object's own clock: a test clock's time for one attached to it (docs/concepts/time.md).
    const clock = await this.clocks.ofStream(streams.escrow(escrowId));
    const command = build(clock.clock.now().toISOString());
    // Only these ask the provider for a refund; the others (a release, a dispute's opening, a new release date) need no mode read.
    const mayRefund = command.type === 'ReverseAllocation' || command.type === 'ResolveDispute';
    const allowed = escrowDeciderFor(principal, merchant.idSalt);
    const decider = mayRefund ? await refundsWhereMoneyMoves(this.providers, merchant.merchantId, allowed) : allowed;
    if (command.type === 'ReverseAllocation') {
      const payee = await this.assertMayDebit(principal, merchant, escrowId, command.data.allocation);
      const { state, at } = await reverseAllocationAtBooks(this.books, { escrowId, payee, decider, reverse: command }, onClock(metadata, clock));
      return { escrow: escrowOutline(state)!, at };
    }
    const { state, at } = await this.runner.run(streams.escrow(escrowId), decider, command, onClock(metadata, clock));
    return { escrow: escrowOutline(state)!, at };
  }

  /** The allocation's payee as stored, once the caller may debit it. */
  private async assertMayDebit(principal: Principal, merchant: AuthenticatedMerchant, escrowId: string, allocation: string): Promise<string> {
    const known = await this.runner.read(streams.escrow(escrowId), escrowDeciderFor(principal, merchant.idSalt));
    const payee = storedId(known.state, allocation, merchant.idSalt);
    const own = known.state.created?.merchantId === merchant.merchantId && known.state.allocations.some((a) => a.merchantId === payee);
    if (own && !may(principal, 'debit', await this.relations.relationOf(principal, payee))) throw new UnknownAllocationMerchant(allocation);
    return payee;
  }
}
