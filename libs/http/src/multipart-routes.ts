/**
 * The API routes that take multipart/form-data and read it themselves, where every other /v1 route
 * takes JSON only: an account's document upload (accounts/account-documents/document-upload.ts).
 * Named as Fastify routes them (`:param`), so the check is by route, never by a path's shape.
 */
export const MULTIPART_API_ROUTES: ReadonlySet<string> = new Set(['/v1/trdp/accounts/:accountId/documents']);
