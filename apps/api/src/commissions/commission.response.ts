import { ApiProperty } from '@nestjs/swagger';

/** A commission rule by the API's names: a percent and ETB; null where the rule has no such part. */
export class CommissionRuleResponse {
  @ApiProperty({ type: Number, nullable: true, example: 10, description: 'Percent of the allocation (10.5 is 10.5 %)' })
  percentage!: number | null;

  @ApiProperty({ type: Number, nullable: true, example: null, description: 'ETB added to each allocation\'s fee' })
  flat!: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 5, description: 'ETB: the least fee' })
  minimum!: number | null;

  @ApiProperty({ type: Number, nullable: true, example: null, description: 'ETB: the most fee' })
  maximum!: number | null;
}

/** A platform's default commission (`accountId` null) or its override for one seller; every part null: none set. */
export class CommissionResponse extends CommissionRuleResponse {
  @ApiProperty({ type: String, nullable: true, example: null, description: "The seller the override is for; null: the platform's default" })
  accountId!: string | null;

  @ApiProperty({ example: 1, description: 'How many times the rule was changed (0: never set); an escrow records the version it applied' })
  version!: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was last changed; null: never' })
  updatedAt!: string | null;
}

/** Each part a change changed, with its value before (null: the rule had no such part); {} when nothing changed. */
export class CommissionPreviousAttributes {
  @ApiProperty({ type: Number, nullable: true, required: false })
  percentage?: number | null;

  @ApiProperty({ type: Number, nullable: true, required: false })
  flat?: number | null;

  @ApiProperty({ type: Number, nullable: true, required: false })
  minimum?: number | null;

  @ApiProperty({ type: Number, nullable: true, required: false })
  maximum?: number | null;
}

export class CommissionChangedResponse extends CommissionResponse {
  @ApiProperty({ type: CommissionPreviousAttributes, description: "What the change changed from what, as Stripe's previous_attributes" })
  previousAttributes!: CommissionPreviousAttributes;
}

/** The rule that computed an allocation's fee at the escrow's creation, as it was then. */
export class AppliedCommissionResponse extends CommissionRuleResponse {
  @ApiProperty({ enum: ['platform', 'account'], description: "platform: the platform's default; account: its override for this seller" })
  source!: 'platform' | 'account';

  @ApiProperty({ example: 1, description: 'The version of that rule' })
  version!: number;
}
