import { IntersectionType, PickType } from '@nestjs/swagger';
import { AllocationPartDto, OpenDisputeDto, ResolveDisputeDto, RefundAllocationDto, ReverseAllocationDto } from '@app/contract';
import { BirrText, Checkbox } from '../../kit/form';

/**
 * The escrow page's action forms (kit/form.ts readForm): the allocation and the reason as the API's
 * bodies declare them, an amount as typed (the API's are JSON numbers). Cancel posts CancelEscrowDto.
 */
const Allocation = PickType(AllocationPartDto, ['merchantId'] as const);

export class ReleaseForm extends Allocation {
  @BirrText()
  amount?: string;
}

export class RefundForm extends IntersectionType(Allocation, PickType(RefundAllocationDto, ['reason'] as const)) {
  @BirrText()
  amount?: string;
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
