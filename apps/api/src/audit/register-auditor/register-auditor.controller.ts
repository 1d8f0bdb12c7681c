import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EventMetadata } from '@app/event-store';
import { envelope, RequestMetadata, AdminApi, ApiEnvelope } from '@app/http';
import { RegisterMerchantDto } from '../../merchants/register-merchant/register-merchant.dto';
import { RegisterAuditorCommand } from '@app/onboarding';
import { AuditorKeyResponse } from './auditor-key.response';

@ApiTags('admin')
@Controller('v1/admin/auditors')
@AdminApi()
export class RegisterAuditorController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a read-only auditor key for /v1/audit (shown once)' })
  @ApiEnvelope(AuditorKeyResponse, { status: 201, message: 'Auditor key created' })
  async register(@Body() body: RegisterMerchantDto, @RequestMetadata() metadata: EventMetadata) {
    const { auditorId, auditorKey } = await this.commands.execute(new RegisterAuditorCommand(body.name.trim(), metadata));
    return envelope('Auditor key created', { auditorId, auditorKey });
  }
}
