import { AllocationPartsDto } from '@app/contract';

/** What to release: part or all of what one allocation holds, or of several at once. */
export class ReleaseAllocationDto extends AllocationPartsDto {}
