import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type EscrowCommand, escrowDecider, normalisePhone, parseEtb, resolveExpiry, streams } from '@app/domain';
import { customerIdFor, escrowIdFor, fingerprint } from '../../http/ids';
import { CommandRunner } from '../../infrastructure/command-runner';
import { CreateEscrowCommand, type CreateEscrowResult } from './create-escrow.command';
import type { CreateEscrowDto } from './create-escrow.dto';
import { EscrowOrderConflict } from './escrow-order-conflict.error';

function toDomain(escrowId: string, merchantId: string, request: CreateEscrowDto, requestFingerprint: string): EscrowCommand {
  const createdAt = new Date().toISOString();
  const phone = normalisePhone(request.customerPhoneNumber);
  return {
    type: 'CreateEscrow',
    data: {
      escrowId,
      merchantId,
      orderId: request.orderId,
      amount: parseEtb(request.amount, 'amount'),
      currency: request.currency as 'ETB',
      customer: { id: customerIdFor(merchantId, phone), name: request.customerName, phone, email: request.customerEmail },
      items: request.items.map((item) => ({
        productId: item.productId,
        itemName: item.item_name,
        quantity: item.quantity,
        unitPrice: parseEtb(item.unit_price, 'unit_price', { allowZero: true }),
        imageUrl: item.image_url,
        stockUnit: item.stock_unit,
      })),
      allocations: request.allocations.map((allocation) => ({
        merchantId: allocation.merchantId,
        amount: parseEtb(allocation.amount, 'allocations.amount'),
        metadata: allocation.metadata && { ...allocation.metadata },
      })),
      description: request.description,
      callbackUrl: request.callbackURL,
      redirectUrl: request.redirectUrl,
      metadata: request.metadata,
      expiresAt: resolveExpiry(request.expiredAt, createdAt),
      requestFingerprint,
      createdAt,
    },
  };
}

@CommandHandler(CreateEscrowCommand)
export class CreateEscrowHandler implements ICommandHandler<CreateEscrowCommand> {
  constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

  async execute({ merchant, request, metadata }: CreateEscrowCommand): Promise<CreateEscrowResult> {
    const escrowId = escrowIdFor(merchant.idSalt, request.orderId);
    const requestFingerprint = fingerprint(request);
    // Rules are checked before the store is read, so bad input gets the same answer on a first or a repeated call.
    const command = toDomain(escrowId, merchant.merchantId, request, requestFingerprint);
    escrowDecider.decide(command, escrowDecider.initialState());
    const outcome = await this.runner.run(
      streams.escrow(escrowId),
      escrowDecider,
      (state) => {
        if (!state.created) return command;
        if (state.created.requestFingerprint !== requestFingerprint) throw new EscrowOrderConflict(request.orderId);
        return undefined;
      },
      metadata,
      { expectNewStream: true },
    );
    return { state: outcome.state, created: outcome.events.length > 0 };
  }
}
