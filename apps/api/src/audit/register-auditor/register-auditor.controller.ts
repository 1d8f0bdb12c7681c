import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EventMetadata } from '@app/event-store';
import { AdminAuthGuard } from '../../http/auth.guards';
import { envelope } from '../../http/envelope';
import { RequestMetadata } from '../../http/request-context';
import { RegisterMerchantDto } from '../../merchants/register-merchant/register-merchant.dto';
import { RegisterAuditorCommand } from '@app/onboarding';

@ApiTags('admin')
@ApiHeader({ name: 'x-admin-key', required: true })
@Controller('v1/admin/auditors')
@UseGuards(AdminAuthGuard)
export class RegisterAuditorController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a read-only auditor key for /v1/audit (shown once)' })
  async register(@Body() body: RegisterMerchantDto, @RequestMetadata() metadata: EventMetadata) {
    const { auditorId, auditorKey } = await this.commands.execute(new RegisterAuditorCommand(body.name.trim(), metadata));
    return envelope('Auditor key created', { auditorId, auditorKey });
  }
}
