import type { ItemBaseDto, PaymentRequestDto } from '@app/http';

/**
 * What creating an order reads of the request. The REST edge validates and documents it as CreateOrderDto
 * (apps/api/src/orders/create-order/create-order.dto.ts), which implements this shape.
 */
export interface CreateOrderRequest extends PaymentRequestDto {
  description: string;
  items: (ItemBaseDto & { productId?: string })[];
  fee?: number;
  testClockId?: string;
}
