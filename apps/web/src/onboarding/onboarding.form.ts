import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The onboarding page's form as a browser posts it (kit/form.ts readForm: any other field is refused).
 * Each field is text here; what it must be is the API's own rule, checked field by field by
 * onboarding-submission.ts with the API's DTOs, so that the page can say which field is wrong.
 */
export class OnboardingForm {
  @IsOptional() @IsString() @MaxLength(400) name?: string;
  @IsOptional() @IsString() @MaxLength(400) tin?: string;
  @IsOptional() @IsString() @MaxLength(400) tradeLicenceNumber?: string;
  @IsOptional() @IsString() @MaxLength(400) email?: string;
  @IsOptional() @IsString() @MaxLength(400) phone?: string;
  @IsOptional() @IsString() @MaxLength(40) kind?: string;
  @IsOptional() @IsString() @MaxLength(400) institution?: string;
  @IsOptional() @IsString() @MaxLength(400) accountNumber?: string;
  @IsOptional() @IsString() @MaxLength(400) holderName?: string;
}

/** The page's document form (multipart, kit/web-plugins.ts readUploadForm): what it is and the file; their rules are the API's (checkedDocument). */
export class OnboardingDocumentForm {
  @IsOptional() @IsString() @MaxLength(40) documentKind?: string;
  /** Checked by the route with the API's rules: a file, not text. */
  @Allow()
  documentFile?: unknown;
}
