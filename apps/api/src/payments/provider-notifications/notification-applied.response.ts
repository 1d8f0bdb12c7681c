import { ApiProperty } from '@nestjs/swagger';
import { ESCROW_STATUSES, ORDER_STATUSES } from '@app/domain';

const PAYABLE_STATUSES = [...new Set([...ORDER_STATUSES, ...ESCROW_STATUSES])];

/** Empty when the notification was signed but about nothing the service keeps. */
export class NotificationAppliedResponse {
  @ApiProperty({ required: false, example: 'ord_01JD2K8M4Q' })
  orderId?: string;

  @ApiProperty({ required: false, enum: PAYABLE_STATUSES, example: 'PAID', description: 'The order’s or escrow’s status now' })
  status?: string;
}
