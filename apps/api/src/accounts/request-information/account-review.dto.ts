import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DOCUMENT_KINDS, type DocumentKind } from '@app/domain';
import { IsDisplayText, IsInstant } from '@app/http';

/** An approval: the reason is optional, and the platform is told it. */
export class ApproveAccountDto {
  @ApiPropertyOptional({ example: 'Licence checked against the registry', description: 'Shown to the platform as the statusReason' })
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(500)
  reason?: string;
}

/** A rejection, which is final: the platform is told why. */
export class RejectAccountDto {
  @ApiProperty({ example: 'The trade licence belongs to another business' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayText()
  @MaxLength(500)
  reason!: string;
}

export class RequirementDueDto {
  @ApiProperty({ enum: DOCUMENT_KINDS, description: 'The document asked for' })
  @IsIn(DOCUMENT_KINDS)
  kind!: DocumentKind;

  @ApiProperty({ format: 'date-time', example: '2026-12-15T09:00:00Z', description: 'Past this instant, while the document has not arrived, the account is restricted for payouts' })
  @IsInstant()
  dueBy!: string;
}

/** What the staff ask of the account; it replaces whatever they asked before. */
export class RequestAccountInformationDto {
  @ApiProperty({ type: [RequirementDueDto], description: 'Each kind once, each due after now' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(DOCUMENT_KINDS.length)
  @ValidateNested({ each: true })
  @Type(() => RequirementDueDto)
  requirements!: RequirementDueDto[];

  @ApiPropertyOptional({ example: 'The licence on file expired in November', description: 'Told to the platform with the request' })
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(500)
  reason?: string;
}
