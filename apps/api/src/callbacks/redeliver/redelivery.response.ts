import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_STATUSES } from '@app/callbacks';

export class RedeliveryResponse {
  @ApiProperty({ example: 'dlv_01JD2K8M4Q' })
  deliveryId!: string;

  @ApiProperty({ enum: DELIVERY_STATUSES, example: 'PENDING' })
  status!: string;
}
