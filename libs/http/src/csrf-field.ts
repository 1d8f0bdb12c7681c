/**
 * The field every console form carries its token in (@fastify/csrf-protection's default): the closed-body
 * check lets it through on form posts, and the consoles' forms read past it (apps/web/src/kit/form.ts).
 */
export const CSRF_FIELD = '_csrf';
