import { AllocationPartsDto } from '../allocation-parts.dto';
import { RefuseUnknownFields } from '../../http/validation.pipe';

/** What to release: part or all of what one allocation holds, or of several at once. */
@RefuseUnknownFields()
export class ReleaseAllocationDto extends AllocationPartsDto {}
