import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import type { Decider } from '@app/domain';
import { AuditorStore } from '@app/merchants';
import { CommandRunner } from '../../infrastructure/command-runner';
import { RegisterAuditorCommand } from './register-auditor.command';

type AuditorEvent = { type: 'AuditorRegistered'; data: { auditorId: string; name: string; registeredAt: string } };

/** The log records who was given read access to it, and when; the key itself stays out of it. */
const auditorDecider: Decider<AuditorEvent['data'], AuditorEvent, { registered: boolean }> = {
  initialState: () => ({ registered: false }),
  evolve: () => ({ registered: true }),
  decide: (data, state) => (state.registered ? [] : [{ type: 'AuditorRegistered', data }]),
};

@CommandHandler(RegisterAuditorCommand)
export class RegisterAuditorHandler implements ICommandHandler<RegisterAuditorCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(AuditorStore) private readonly auditors: AuditorStore,
  ) {}

  async execute({ name, metadata }: RegisterAuditorCommand) {
    const auditorId = `aud_${randomBytes(12).toString('hex')}`;
    await this.runner.run(`auditor-${auditorId}`, auditorDecider, { auditorId, name, registeredAt: new Date().toISOString() }, metadata);
    return { auditorId, auditorKey: await this.auditors.issue(auditorId, name) };
  }
}
