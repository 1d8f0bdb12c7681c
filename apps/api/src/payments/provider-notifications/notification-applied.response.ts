import { ApiProperty } from '@nestjs/swagger';

/** Empty when the notification was signed but about nothing the service keeps. */
export class NotificationAppliedResponse {
  @ApiProperty({ required: false, example: 'ord_01JD2K8M4Q' })
  orderId?: string;

  @ApiProperty({ required: false, example: 'PAID' })
  status?: string;
}
