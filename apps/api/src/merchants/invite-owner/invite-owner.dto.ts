import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, MaxLength } from 'class-validator';

export class InviteOwnerDto {
  @ApiPropertyOptional({
    example: 'owner@merkato.example',
    description: "The owner's e-mail; required when the merchant has none yet, otherwise it replaces the current one",
  })
  // null reads as absent, like a missing field.
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;
}
