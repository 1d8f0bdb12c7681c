import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type LinkDecidedBy, merchantDecider, MerchantNotFound, platformLinkDecider, platformLinkKey, streams } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { LinkPlatformCommand, type PlatformLinkOutcome, RevokePlatformLinkCommand } from './platform-link.commands';

/**
 * A link's command on its stream. Both sides must be registered merchants (an account is never one: it
 * has a platform already); an unknown one is not found, before anything is written.
 */
async function decideLink(runner: CommandRunner, type: 'LinkPlatform' | 'RevokePlatformLink', merchantId: string, platformId: string, decidedBy: LinkDecidedBy, metadata: EventMetadata): Promise<PlatformLinkOutcome> {
  for (const id of new Set([merchantId, platformId])) {
    if ((await runner.read(streams.merchant(id), merchantDecider)).state.merchantId === undefined) throw new MerchantNotFound(id);
  }
  const { state } = await runner.run(streams.platformLink(platformLinkKey(merchantId, platformId)), platformLinkDecider, { type, data: { merchantId, platformId, decidedBy, at: new Date().toISOString() } }, metadata);
  return state.link!;
}

@CommandHandler(LinkPlatformCommand)
export class LinkPlatformHandler implements ICommandHandler<LinkPlatformCommand> {
  constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

  execute({ merchantId, platformId, decidedBy, metadata }: LinkPlatformCommand): Promise<PlatformLinkOutcome> {
    return decideLink(this.runner, 'LinkPlatform', merchantId, platformId, decidedBy, metadata);
  }
}

@CommandHandler(RevokePlatformLinkCommand)
export class RevokePlatformLinkHandler implements ICommandHandler<RevokePlatformLinkCommand> {
  constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

  execute({ merchantId, platformId, decidedBy, metadata }: RevokePlatformLinkCommand): Promise<PlatformLinkOutcome> {
    return decideLink(this.runner, 'RevokePlatformLink', merchantId, platformId, decidedBy, metadata);
  }
}
