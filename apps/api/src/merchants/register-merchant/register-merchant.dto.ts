import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDisplayName } from '@app/http';

export class RegisterMerchantDto {
  @ApiProperty({ example: 'Merkato Online' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayName()
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({
    example: 'owner@merkato.example',
    description: "The owner's e-mail: signs in to the merchant dashboard after accepting the invitation (invitationUrl)",
  })
  // null reads as absent, like a missing field.
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;
}
