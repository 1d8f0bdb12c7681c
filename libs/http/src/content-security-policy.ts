/**
 * Our pages load nothing from elsewhere and run only inline scripts carrying the response's nonce.
 * Styles come from our own stylesheet (the consoles) or inline with the nonce (the checkout page,
 * which ships as one document).
 */
export function contentSecurityPolicy(nonce: string, styles: 'self' | 'nonce'): string {
  return [
    "default-src 'none'",
    `style-src ${styles === 'self' ? "'self'" : `'nonce-${nonce}'`}`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
