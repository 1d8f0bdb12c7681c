import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { auditorDecider, streams } from '@app/domain';
import { AuditorStore } from '@app/credentials';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { RegisterAuditorCommand } from './register-auditor.command';

@CommandHandler(RegisterAuditorCommand)
export class RegisterAuditorHandler implements ICommandHandler<RegisterAuditorCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(AuditorStore) private readonly auditors: AuditorStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ name, metadata }: RegisterAuditorCommand) {
    const auditorId = `aud_${randomBytes(12).toString('hex')}`;
    await this.runner.run(streams.auditor(auditorId), auditorDecider, { type: 'RegisterAuditor', data: { auditorId, name, at: this.clock.now().toISOString() } }, metadata);
    return { auditorId, auditorKey: await this.auditors.issue(auditorId, name) };
  }
}
