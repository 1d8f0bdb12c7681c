import type { ItemBaseDto, PaymentRequestDto } from '@app/http';

/**
 * What creating an order reads of the request. The REST edge validates and documents it as CreateOrderDto,
 * which implements this shape, so the compiler keeps the two in step.
 */
export interface CreateOrderRequest extends PaymentRequestDto {
  description: string;
  items: (ItemBaseDto & { productId?: string })[];
  fee?: number;
  testClockId?: string;
}
