import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, MaxLength } from 'class-validator';

export class InviteAccountOwnerDto {
  @ApiPropertyOptional({
    example: 'almaz@seller.example',
    description: "The seller owner's e-mail, with which they sign in; without it, the account's own e-mail (or the address of an earlier invitation) is used",
  })
  // null reads as absent, like a missing field.
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;
}
