/** The hosted onboarding page's place: the link opens it, the page's form posts back to it. */
export const ONBOARDING_PATH = '/onboarding';

/**
 * The URL an account link answers. The token is in the path so the page opens without script; the
 * logs write the path without it (libs/http/src/logged-url.ts), and opening the link spends
 * it at once, trading it for the page's session cookie.
 */
export function onboardingLinkUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${ONBOARDING_PATH}/${token}`;
}
