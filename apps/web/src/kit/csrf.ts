import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@app/config';
import { secureCookies } from './session-cookie';
import { sessionToken } from './web-plugins';

/** A form whose token is missing, stale or from another session. */
export class CsrfRefused extends Error {}

/** Refuses a form POST without a valid token from @fastify/csrf-protection; the HTML error filter explains. */
@Injectable()
export class CsrfGuard implements CanActivate {
  canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return new Promise((resolve, reject) => {
      // The plugin answers a refusal through reply.send; this stand-in turns it into an exception instead.
      const refuse = { send: () => reject(new CsrfRefused('The form token is missing or invalid')) } as unknown as FastifyReply;
      request.server.csrfProtection(request, refuse, () => resolve(true));
    });
  }
}

/** A token for the forms of this response, bound to the request's session. */
export function csrfToken(reply: FastifyReply, config: AppConfig): string {
  return reply.generateCsrf({ userInfo: sessionToken(reply.request), secure: secureCookies(config, reply.request) });
}
