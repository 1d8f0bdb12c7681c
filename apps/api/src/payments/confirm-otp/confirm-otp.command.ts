import { Command } from '@nestjs/cqrs';

export class ConfirmOtpCommand extends Command<void> {
  constructor(
    readonly id: string,
    readonly otp: string,
  ) {
    super();
  }
}
