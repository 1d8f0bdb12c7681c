import { HttpException } from '@nestjs/common';
import { DomainError } from '@app/domain';
import { STATUS_BY_KIND } from '@app/http';
import type { Notice } from './page';

/**
 * A form's refusal, said on the form's own page (its notice at the top, announced as an alert) rather
 * than on the error page: a body the form's shape refuses (400, an undeclared field among them) or a
 * command's refusal (400, 409), with its status and the API's message. A party not found stays the
 * error page's 404 (HtmlErrorFilter), as does what failed unexpectedly: undefined for those.
 */
export function formRefusal(error: unknown): { status: number; notice: NonNullable<Notice> } | undefined {
  if (error instanceof DomainError) {
    if (error.kind !== 'invalid' && error.kind !== 'conflict') return undefined;
    return { status: STATUS_BY_KIND[error.kind], notice: { text: error.message, tone: 'bad' } };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status !== 400 && status !== 409) return undefined;
    return { status, notice: { text: error.message, tone: 'bad' } };
  }
  return undefined;
}
