import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { customerIdFor, fingerprint, newOrderId, normalisePhone, type OrderCommand, orderDecider, orderIdFor, type OrderOutline, orderOutline, parseEtb, resolveExpiry, streams } from '@app/domain';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { Clocks, CommandRunner, newStream, onClock } from '@app/infrastructure';
import { refuseNewCallbackUrl } from '@app/http';
import { CreateOrderCommand } from './create-order.command';

@CommandHandler(CreateOrderCommand)
export class CreateOrderHandler implements ICommandHandler<CreateOrderCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ merchant, request, metadata, idempotencyKey }: CreateOrderCommand): Promise<OrderOutline> {
    refuseNewCallbackUrl(request.callbackURL, undefined, this.config);
    const orderId = idempotencyKey ? orderIdFor(merchant.idSalt, idempotencyKey, fingerprint(request)) : newOrderId();
    const clock = request.testClockId ? await this.clocks.named(request.testClockId, merchant) : this.clocks.real();
    const createdAt = clock.clock.now().toISOString();
    const phone = normalisePhone(request.customerPhoneNumber);
    const create: OrderCommand = {
      type: 'CreateOrder',
      data: {
        orderId,
        merchantId: merchant.merchantId,
        amount: parseEtb(request.amount, 'amount'),
        ...(request.fee !== undefined ? { fee: parseEtb(request.fee, 'fee', { allowZero: true }) } : {}),
        currency: request.currency as 'ETB',
        description: request.description,
        customer: { id: customerIdFor(merchant.merchantId, phone), name: request.customerName, phone, email: request.customerEmail },
        items: request.items.map((item) => ({
          productId: item.productId,
          itemName: item.item_name,
          quantity: item.quantity,
          unitPrice: parseEtb(item.unit_price, 'unit_price', { allowZero: true }),
        })),
        callbackUrl: request.callbackURL,
        redirectUrl: request.redirectUrl,
        metadata: request.metadata,
        expiresAt: resolveExpiry(request.expiredAt, createdAt),
        createdAt,
        ...(clock.testClockId ? { testClockId: clock.testClockId } : {}),
      },
    };
    const { state, events } = await this.runner.run(streams.order(orderId), orderDecider, create, onClock(metadata, clock), newStream(orderDecider));
    // Its payment then finds its clock without reading its creation event.
    if (events.length > 0) this.clocks.created(streams.order(orderId), clock);
    return orderOutline(state)!;
  }
}
