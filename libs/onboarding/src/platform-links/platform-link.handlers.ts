import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { merchantDecider, MerchantNotFound, platformLinkDecider, platformLinkKey, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { DecidePlatformLinkCommand, type PlatformLinkOutcome } from './platform-link.commands';

/**
 * A link's command on its stream. Both sides must be registered merchants (an account is never one: it
 * has a platform already); an unknown one is not found, before anything is written.
 */
@CommandHandler(DecidePlatformLinkCommand)
export class DecidePlatformLinkHandler implements ICommandHandler<DecidePlatformLinkCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ decision, merchantId, platformId, decidedBy, metadata }: DecidePlatformLinkCommand): Promise<PlatformLinkOutcome> {
    for (const id of new Set([merchantId, platformId])) {
      if ((await this.runner.read(streams.merchant(id), merchantDecider)).state.merchantId === undefined) throw new MerchantNotFound(id);
    }
    const stream = streams.platformLink(platformLinkKey(merchantId, platformId));
    const { state } = await this.runner.run(stream, platformLinkDecider, { type: decision, data: { merchantId, platformId, decidedBy, at: this.clock.now().toISOString() } }, metadata);
    return state.link!;
  }
}
