import type { ItemBaseDto, PaymentRequestDto } from '@app/http';

/**
 * What creating an escrow reads of the request. The REST edge validates and documents it as CreateEscrowDto,
 * which implements this shape, so the compiler keeps the two in step.
 */
export interface CreateEscrowRequest extends PaymentRequestDto {
  orderId: string;
  description?: string;
  items: (ItemBaseDto & { productId: string; image_url?: string; stock_unit?: string })[];
  allocations: { merchantId: string; amount: number; fee?: number; metadata?: { merchantName?: string; purpose?: string } }[];
  autoReleaseAt?: string;
  releaseAfterDays?: number;
  testClockId?: string;
}
