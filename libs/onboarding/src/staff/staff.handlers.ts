import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { staffDecider, streams } from '@app/domain';
import { ConsoleSessions, StaffKeys } from '@app/credentials';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { RegisterStaffMemberCommand, RevokeStaffKeyCommand } from './staff.commands';

@CommandHandler(RegisterStaffMemberCommand)
export class RegisterStaffMemberHandler implements ICommandHandler<RegisterStaffMemberCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(StaffKeys) private readonly keys: StaffKeys,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ name, metadata }: RegisterStaffMemberCommand) {
    const staffId = `stf_${randomBytes(12).toString('hex')}`;
    await this.runner.run(streams.staff(staffId), staffDecider, { type: 'RegisterStaffMember', data: { staffId, name, at: this.clock.now().toISOString() } }, metadata);
    return { staffId, staffKey: await this.keys.issue(staffId, name) };
  }
}

@CommandHandler(RevokeStaffKeyCommand)
export class RevokeStaffKeyHandler implements ICommandHandler<RevokeStaffKeyCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(StaffKeys) private readonly keys: StaffKeys,
    @Inject(ConsoleSessions) private readonly sessions: ConsoleSessions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ staffId, metadata }: RevokeStaffKeyCommand): Promise<void> {
    // The key stops working first: a failure after it leaves the event to a retry (which revoking again allows), never a live key.
    await this.keys.revoke(staffId);
    // A console signed in with the key stops deciding with it too (audit console sessions are the admin kind).
    await this.sessions.revokeAll('admin', staffId);
    await this.runner.run(streams.staff(staffId), staffDecider, { type: 'RevokeStaffKey', data: { staffId, at: this.clock.now().toISOString() } }, metadata);
  }
}
