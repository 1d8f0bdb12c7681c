import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type OrderOutline, orderDecider, orderOutline, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { RefundOrderCommand } from './refund-order.command';

@CommandHandler(RefundOrderCommand)
export class RefundOrderHandler implements ICommandHandler<RefundOrderCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchant, orderId, amount, reason, metadata }: RefundOrderCommand): Promise<{ order: OrderOutline; at: Date }> {
    const { state, at } = await this.runner.run(
      streams.order(orderId),
      orderDecider,
      { type: 'RefundPayment', data: { orderId, merchantId: merchant.merchantId, amount, note: reason, at: this.clock.now().toISOString() } },
      metadata,
    );
    return { order: orderOutline(state)!, at };
  }
}
