import { ApiProperty } from '@nestjs/swagger';

export class RedeliveryResponse {
  @ApiProperty({ example: 'dlv_01JD2K8M4Q' })
  deliveryId!: string;

  @ApiProperty({ enum: ['PENDING', 'DELIVERED', 'ABANDONED'], example: 'PENDING' })
  status!: string;
}
