import { Body, Controller, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { envelope, CurrentMerchant, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems, ApiCallbackPayloads } from '@app/http';
import { escrowView } from '@app/read-models';
import { presentCreatedEscrow } from '../escrow.presenter';
import { CreateEscrowCommand } from '@app/features/escrows';
import { CreateEscrowDto } from './create-escrow.dto';
import { CreatedEscrowResponse } from './created-escrow.response';
import { MovesMoney } from '../../http/moves-money';

@ApiTags('escrow')
@Controller('v1/trdp/escrow/order')
@MerchantApi()
export class CreateEscrowController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @MovesMoney()
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an escrow order with merchant allocations; send the customer to paymentUrl' })
  @ApiCallbackPayloads('EscrowCallback', 'callbackURL')
  @ApiEnvelope(CreatedEscrowResponse, { status: 201, message: 'Escrow order created' })
  @ApiEnvelope(CreatedEscrowResponse, { message: 'Escrow order already exists', description: 'The same request was already accepted: the existing escrow' })
  @ApiProblems({
    400: ['UNSUPPORTED_CURRENCY', 'ALLOCATION_SUM_MISMATCH', 'DUPLICATE_ALLOCATION_MERCHANT', 'FEE_EXCEEDS_AMOUNT', 'AUTO_RELEASE_BEFORE_EXPIRY', 'AUTO_RELEASE_CONFLICT', 'AUTO_RELEASE_OUT_OF_RANGE', 'CALLBACK_URL_REFUSED', 'TEST_CLOCK_LIVE_MODE', 'TEST_CLOCK_MISMATCH'],
    404: ['UNKNOWN_ALLOCATION_MERCHANT', 'ABC_001'],
    409: ['LIVE_MODE_NOT_CONFIGURED', 'ESCROW_ORDER_CONFLICT', 'CONCURRENT_MODIFICATION'],
  })
  async create(
    @Body() body: CreateEscrowDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @RequestMetadata() metadata: EventMetadata,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { escrow, created } = await this.commands.execute(new CreateEscrowCommand(merchant, body, metadata));
    if (!created) void reply.status(200);
    return envelope(
      created ? 'Escrow order created' : 'Escrow order already exists',
      presentCreatedEscrow(escrowView(escrow), this.config.publicBaseUrl, body.allocations.map((a) => a.merchantId)),
    );
  }
}
