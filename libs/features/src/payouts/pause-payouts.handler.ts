import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { payoutSettingsDecider, redirectedParty, type SettingsInForce, settingsInForceOf, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { PausePayoutsCommand } from '@app/contract';

/**
 * A pause is an event of the payout settings' stream (PayoutsPaused, PayoutsResumed): every payout,
 * scheduled or asked for, reads the settings in force where it is decided (decidePayoutRequest), so a
 * payout decided after the pause is appended pays nothing. Pausing twice, or resuming what runs, writes nothing.
 */
@CommandHandler(PausePayoutsCommand)
export class PausePayoutsHandler implements ICommandHandler<PausePayoutsCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, pause, metadata }: PausePayoutsCommand): Promise<SettingsInForce | undefined> {
    const { id: merchantId } = redirectedParty(principal);
    const at = this.clock.now().toISOString();
    const command = pause.paused ? { type: 'PausePayouts' as const, data: { merchantId, reason: pause.reason.trim(), at } } : { type: 'ResumePayouts' as const, data: { merchantId, at } };
    const { state } = await this.runner.run(streams.payoutSettings(merchantId), payoutSettingsDecider, command, metadata);
    return settingsInForceOf(state);
  }
}
