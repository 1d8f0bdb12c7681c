import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHmac } from 'node:crypto';
import type { AppConfig } from '@app/config';
import { MAX_STATEMENT_BYTES } from '@app/payments';
import { ApiError, MULTIPART_API_ROUTES } from '@app/http';
import { SESSION_COOKIES } from './session-cookie';

/**
 * Cookies and CSRF tokens for the browser consoles. Form bodies need no plugin: Nest's Fastify
 * adapter already parses application/x-www-form-urlencoded (a second parser would be refused).
 * A file upload is multipart (readUploadForm, over the multipart parser every HTTP process registers: libs/http/src/service/http-app.ts);
 * an API route that takes one reads its own (libs/http/src/multipart-routes.ts).
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
  fastify.addHook('preValidation', readUploadForm);
}

/** The console forms that upload a file: the audit console's provider statement, the onboarding page's documents. */
const UPLOAD_FORMS = new Set(['/audit/reconciliations', '/onboarding/documents']);

/**
 * The upload forms that answer a file past the upload's limit on their own page (uploadTooLarge), its
 * refusal in the page's summary as their other refusals are; any other answers 413 from here.
 */
const ANSWERS_TOO_LARGE = new Set(['/onboarding/documents']);

/** The requests of those forms whose file was past the limit: its bytes were read and dropped, the other fields kept. */
const TOO_LARGE = new WeakSet<FastifyRequest>();

/** Whether this upload's file was past the limit, so it arrived without its bytes. */
export const uploadTooLarge = (request: FastifyRequest): boolean => TOO_LARGE.has(request);

/** parts() takes throwFileSizeLimit as file() does (the plugin's README, "throwFileSizeLimit"); its types list it for file() only. */
const KEEP_READING_PAST_LIMIT = { throwFileSizeLimit: false } as Parameters<FastifyRequest['parts']>[0];

/** Each uploaded file's type as its part declared it, kept beside its bytes (a document's type is checked against them). */
const DECLARED_TYPES = new WeakMap<Buffer, string>();

/** The type an uploaded file's part declared; undefined for anything but a file of an upload form. */
export const declaredType = (file: Buffer): string | undefined => DECLARED_TYPES.get(file);

/**
 * An upload form's fields become the body as any form's do (the CSRF token among them), its file a
 * Buffer of the exact bytes (their SHA-256 is recorded) and its declared type (declaredType). Multipart anywhere else is refused as it
 * was before the plugin, and a malformed or oversized one is a 400 or 413, never a 500 (a file past the limit of a
 * form that answers it on its own page goes on to it, flagged). The body
 * has no prototype: a field named __proto__ is just a field.
 */
async function readUploadForm(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart() || MULTIPART_API_ROUTES.has(request.routeOptions.url ?? '')) return;
  const path = request.url.split('?')[0];
  if (!UPLOAD_FORMS.has(path)) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'This form is sent as application/x-www-form-urlencoded');
  const body = Object.create(null) as Record<string, string | Buffer>;
  let tooLarge = false;
  try {
    // On a form that answers it, a file past the limit is read to its end and dropped (not thrown at its limit), so
    // the fields after it (the form token among them) are read too and the whole request is taken before the page
    // answers (the request timeout bounds how long a client sends); anywhere else the read stops at the limit.
    for await (const part of request.parts(ANSWERS_TOO_LARGE.has(path) ? KEEP_READING_PAST_LIMIT : undefined)) {
      if (part.type !== 'file') body[part.fieldname] = String(part.value);
      else {
        const bytes = await part.toBuffer();
        if (part.file.truncated) tooLarge = true;
        else DECLARED_TYPES.set((body[part.fieldname] = bytes), part.mimetype);
      }
    }
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 413) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `The upload is larger than ${MAX_STATEMENT_BYTES} bytes, or has more parts than the form`);
    throw new ApiError(400, 'BadRequestException', 'The form could not be read as multipart/form-data');
  }
  if (tooLarge) TOO_LARGE.add(request);
  request.body = body;
}

/** Whichever console session this request carries (cookie paths keep them apart); the plugin needs a non-empty value before sign-in. */
export function sessionToken(request: FastifyRequest): string {
  return SESSION_COOKIES.map((c) => request.cookies?.[c.name]).find((value): value is string => typeof value === 'string' && value !== '') ?? 'signed-out';
}
