import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { callbackStream, deliveryDecider } from '@app/callbacks';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { RedeliverCommand, type Redelivery } from '@app/contract';

/**
 * Re-opens a delivery; the dispatcher sees the request in the log and queues the next attempt: the
 * same delivery id and payload, with a fresh timestamp and signature.
 */
@CommandHandler(RedeliverCommand)
export class RedeliverHandler implements ICommandHandler<RedeliverCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchantId, deliveryId, metadata }: RedeliverCommand): Promise<Redelivery> {
    const { state } = await this.runner.run(
      callbackStream(deliveryId),
      deliveryDecider,
      { type: 'RequestRedelivery', data: { deliveryId, merchantId, at: this.clock.now().toISOString() } },
      metadata,
    );
    // The decider refuses a delivery that was never scheduled, so one redelivered has its schedule.
    return { status: state.status, orderId: state.scheduled!.orderId };
  }
}
