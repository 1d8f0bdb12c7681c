import { ApiProperty } from '@nestjs/swagger';
import { EscrowResponse } from '../get-escrow/escrow.response';

/** A page of escrows, newest first, each as GET /v1/trdp/escrow/{escrowId} answers it. */
export class EscrowsPageResponse {
  @ApiProperty({ type: [EscrowResponse] })
  escrows!: EscrowResponse[];

  @ApiProperty({ description: 'Whether a page follows: ask again with startingAfter the last escrowId of this one' })
  hasMore!: boolean;
}
