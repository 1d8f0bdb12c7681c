import { ApiProperty } from '@nestjs/swagger';
import { TenantCredentialsResponse } from './registered-merchant.response';

export class OtherModeResponse extends TenantCredentialsResponse {
  @ApiProperty({ description: 'The merchant it is the other mode of', example: 'mer_d2e69ca6f59255a3e4e9e065' })
  twinId!: string;
}
