import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@app/domain';
import { ClientGone, html, loggedUrl, STATUS_BY_KIND } from '@app/http';
import { CsrfRefused } from './csrf';
import { type NavLink, redirect, sendPage } from './page';

/** A page that needs a session, opened without one: the browser goes to the sign-in page. */
export class SignInRequired extends Error {
  constructor(readonly signInPath: string) {
    super('Sign in first');
  }
}

function describe(exception: unknown): { status: number; title: string; message: string; unexpected: boolean } {
  if (exception instanceof CsrfRefused) {
    return { status: 403, title: 'This form has expired', message: 'Go back, reload the page and try again.', unexpected: false };
  }
  if (exception instanceof DomainError) {
    const status = STATUS_BY_KIND[exception.kind];
    return { status, title: status === 404 ? 'Not found' : 'That did not work', message: exception.message, unexpected: false };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 429) return { status, title: 'Too many requests', message: 'Wait a minute and try again.', unexpected: false };
    if (status === 404) return { status, title: 'Not found', message: 'There is nothing at this address.', unexpected: false };
    if (status < 500) return { status, title: 'That did not work', message: exception.message, unexpected: false };
  }
  return { status: 500, title: 'Something went wrong', message: 'The error has been logged. Please try again in a moment.', unexpected: true };
}

/** The browser consoles answer errors with a readable page (never the API's JSON error) and a way back. */
@Catch()
export class HtmlErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  constructor(private readonly brand: NavLink) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    // Work stopped because no one is left to answer: nothing failed, and nothing can be sent.
    if (exception instanceof ClientGone) return;
    if (exception instanceof SignInRequired) {
      redirect(reply, exception.signInPath);
      return;
    }
    const { status, title, message, unexpected } = describe(exception);
    if (unexpected) this.logger.error(`${request.method} ${loggedUrl(request.url.split('?')[0])} (request ${String(request.id)}) failed: ${exception instanceof Error ? exception.stack : String(exception)}`);
    sendPage(
      reply,
      {
        title,
        brand: this.brand,
        narrow: true,
        body: html`<h1>${title}</h1><div class="card"><p>${message}</p><p><a href="${this.brand.href}">Back to ${this.brand.label}</a></p></div>`,
      },
      status,
    );
  }
}
