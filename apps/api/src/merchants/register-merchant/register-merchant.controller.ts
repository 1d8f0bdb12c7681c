import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EventMetadata } from '@app/event-store';
import { AdminAuthGuard } from '../../http/auth.guards';
import { envelope } from '../../http/envelope';
import { RequestMetadata } from '../../http/request-context';
import { RegisterMerchantCommand } from './register-merchant.command';
import { RegisterMerchantDto } from './register-merchant.dto';

@ApiTags('admin')
@ApiHeader({ name: 'x-admin-key', required: true })
@Controller('v1/admin/merchants')
@UseGuards(AdminAuthGuard)
export class RegisterMerchantController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a merchant; the response is the only time its secrets are shown' })
  async register(@Body() body: RegisterMerchantDto, @RequestMetadata() metadata: EventMetadata) {
    const merchant = await this.commands.execute(new RegisterMerchantCommand(body.name.trim(), metadata));
    return envelope('Merchant registered', {
      merchantId: merchant.merchantId,
      apiSecret: merchant.apiSecret,
      webhookSecret: merchant.webhookSecret,
    });
  }
}
