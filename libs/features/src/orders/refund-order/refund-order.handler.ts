import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type OrderOutline, orderDecider, orderOutline, streams } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { RefundOrderCommand } from './refund-order.command';

@CommandHandler(RefundOrderCommand)
export class RefundOrderHandler implements ICommandHandler<RefundOrderCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ merchant, orderId, amount, reason, metadata }: RefundOrderCommand): Promise<{ order: OrderOutline; at: Date }> {
    // The object's own clock: a test clock's time for one attached to it (docs/concepts/time.md).
    const clock = await this.clocks.ofStream(streams.order(orderId));
    const { state, at } = await this.runner.run(
      streams.order(orderId),
      orderDecider,
      { type: 'RefundPayment', data: { orderId, merchantId: merchant.merchantId, amount, note: reason, at: clock.clock.now().toISOString() } },
      onClock(metadata, clock),
    );
    return { order: orderOutline(state)!, at };
  }
}
