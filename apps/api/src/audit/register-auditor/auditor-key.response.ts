import { ApiProperty } from '@nestjs/swagger';

export class AuditorKeyResponse {
  @ApiProperty({ example: 'aud_01JD2' })
  auditorId!: string;

  @ApiProperty({ description: 'Sent as x-auditor-key; shown once' })
  auditorKey!: string;
}
