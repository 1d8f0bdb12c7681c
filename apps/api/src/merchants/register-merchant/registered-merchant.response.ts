import { ApiProperty } from '@nestjs/swagger';

/** One tenant's secrets: this answer is the only time they are shown. */
export class TenantCredentialsResponse {
  @ApiProperty({ example: 'mer_01JD2' })
  merchantId!: string;

  @ApiProperty({ description: 'Sent as x-api-secret; `sk_test_…` opens the test tenant, `sk_live_…` the live one', example: 'sk_test_4f9c…' })
  apiSecret!: string;

  @ApiProperty({ description: 'Signs the callbacks (`whsec_test_…`, `whsec_live_…`)', example: 'whsec_test_8a1d…' })
  webhookSecret!: string;

  @ApiProperty({ description: 'Whether this tenant is the live one (its money is real) or the test one' })
  livemode!: boolean;
}

/**
 * An owner's two tenants (docs/concepts/modes.md): the test tenant at the top level, where an
 * integration starts, and the live tenant under `live`. Each sees nothing of the other.
 */
export class RegisteredMerchantResponse extends TenantCredentialsResponse {
  @ApiProperty({ type: TenantCredentialsResponse, description: 'The live tenant: its own id and keys, its own sellers, books and settings' })
  live!: TenantCredentialsResponse;

  @ApiProperty({ required: false, format: 'uri', description: 'Only when an email was given: where the owner sets the dashboard password (valid 7 days); the dashboard opens the test tenant' })
  invitationUrl?: string;
}
