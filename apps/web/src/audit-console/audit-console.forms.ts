import { Allow, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { STATEMENT_PROVIDERS, type StatementProvider } from '@app/audit';
import { IsDisplayText } from '@app/http';

/** The audit console's forms (kit/form.ts readForm). A key left empty is answered as a wrong one. */
export class AuditorSignInForm {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  key?: string;
}

/** Approve (a reason is optional) or reject (required) a seller: the reason is shown to the platform. */
export class AccountDecisionForm {
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(500)
  reason?: string;
}

/** Documents asked of a seller: each kind ticked, all due by the end of one Addis Ababa day (account-review.pages.ts). */
export class AccountInformationForm {
  @IsOptional()
  @IsIn(['on'])
  identity?: string;

  @IsOptional()
  @IsIn(['on'])
  tin_certificate?: string;

  @IsOptional()
  @IsIn(['on'])
  trade_licence?: string;

  /** Checked by the route: a day that exists (addisDay). */
  @IsString()
  @MaxLength(10)
  dueOn!: string;

  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(500)
  reason?: string;
}

/** A provider's statement to reconcile (multipart: the file is a Buffer, web-plugins.ts readUploadForm). */
export class ReconciliationForm {
  @IsIn(STATEMENT_PROVIDERS)
  provider!: StatementProvider;

  /** Checked by the route: a file, not text. */
  @Allow()
  statement?: unknown;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  day?: string;
}
