import type { ItemBaseDto, PaymentRequestDto } from '@app/http';

/**
 * What creating an escrow reads of the request. The REST edge validates and documents it as CreateEscrowDto
 * (apps/api/src/escrows/create-escrow/create-escrow.dto.ts), which implements this shape.
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
