import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHmac } from 'node:crypto';
import type { AppConfig } from '@app/config';
import { MAX_STATEMENT_BYTES } from '@app/payments';
import { SESSION_COOKIES } from './session-cookie';

/**
 * Cookies and CSRF tokens for the browser consoles. Form bodies need no plugin: Nest's Fastify
 * adapter already parses application/x-www-form-urlencoded (a second parser would be refused).
 * A file upload (the audit console's provider statement) is multipart: its fields, the CSRF token
 * among them, become the body as for any form, the file as a Buffer of its exact bytes; the JSON
 * API refuses any body but JSON before a parser runs, so this reaches only the console pages.
 * A token is bound to the session cookie it was made for, so one leaked from a signed-out page
 * cannot be replayed in a session; the HMAC key derives from SECRETS_KEY, shared by every process.
 */
export async function registerWebPlugins(fastify: FastifyInstance, config: AppConfig): Promise<void> {
  await fastify.register(cookie);
  await fastify.register(csrf, {
    cookieKey: 'console_csrf',
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true },
    csrfOpts: { userInfo: true, hmacKey: createHmac('sha256', config.secretsKey).update('console-csrf-v1').digest() },
    getUserInfo: (request: FastifyRequest) => sessionToken(request),
  });
  await fastify.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: MAX_STATEMENT_BYTES, files: 1, fields: 10, parts: 11 } });
}

/** Whichever console session this request carries (cookie paths keep them apart); the plugin needs a non-empty value before sign-in. */
export function sessionToken(request: FastifyRequest): string {
  return SESSION_COOKIES.map((c) => request.cookies?.[c.name]).find((value): value is string => typeof value === 'string' && value !== '') ?? 'signed-out';
}
