import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '@app/credentials';

/**
 * The sign-in and invitation forms (kit/form.ts readForm). A field left empty is no refusal here:
 * the page answers it as a wrong e-mail or password, or asks again, as it does any other mistake.
 */
export class SignInForm {
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @IsOptional()
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password?: string;
}

export class InvitationForm {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  token?: string;

  @IsOptional()
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password?: string;

  @IsOptional()
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  confirm?: string;
}
