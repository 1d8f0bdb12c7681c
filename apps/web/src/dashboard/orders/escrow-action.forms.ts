import { keyedRequestDigest } from '@app/infrastructure';
import { IntersectionType, PickType } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { Santim } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { AllocationPartDto, OpenDisputeDto, ResolveDisputeDto, RefundAllocationDto, ReverseAllocationDto } from '@app/contract';
import { BirrText, Checkbox } from '../../kit/form';

/**
 * The escrow page's action forms (kit/form.ts readForm): the allocation and the reason as the API's
 * bodies declare them, an amount as typed (the API's are JSON numbers). Cancel posts CancelEscrowDto.
 */
const Allocation = PickType(AllocationPartDto, ['merchantId'] as const);

/** A release or refund of an allocation, with the key its confirmation page was rendered with (confirmBody's `keyed`). */
class KeyedAllocation extends Allocation {
  /** Pressing Release or Refund twice, or again after a lost answer, moves the money once. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  idempotencyKey?: string;
}

export class ReleaseForm extends KeyedAllocation {
  @BirrText()
  amount?: string;
}

export class RefundForm extends IntersectionType(KeyedAllocation, PickType(RefundAllocationDto, ['reason'] as const)) {
  @BirrText()
  amount?: string;
}

/**
 * The release's or refund's metadata: with the form's key, a digest of the key, the move, the allocation
 * and the amount asked, by which the runner answers a request already applied from its events
 * (libs/infrastructure/src/idempotency/keyed-replay.ts), as for the API's Idempotency-Key. So the same
 * form sent again moves nothing more; another amount typed on the same page is another request.
 */
export function allocationMoveMetadata(metadata: EventMetadata, move: 'release' | 'refund', form: KeyedAllocation, amount: Santim | undefined): EventMetadata {
  if (!form.idempotencyKey) return metadata;
  const idempotency = keyedRequestDigest(`dashboard ${move}`, form.idempotencyKey, form.merchantId, String(amount ?? 'all'));
  return { ...metadata, idempotency };
}

export class DisputeForm extends IntersectionType(Allocation, PickType(OpenDisputeDto, ['reason'] as const)) {}

/** The disputed allocation's split as typed; the reason is the resolution's note. */
export class ResolveForm extends IntersectionType(Allocation, PickType(ResolveDisputeDto, ['reason'] as const)) {
  @BirrText()
  release?: string;

  @BirrText()
  refund?: string;
}

export class ReverseForm extends PickType(ReverseAllocationDto, ['merchantId', 'reason'] as const) {
  @BirrText()
  amount?: string;

  @Checkbox()
  refundFee?: string;
}
