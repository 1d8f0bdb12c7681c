/** An account link's path (onboarding/onboarding-paths.ts): its last segment is the link's token. */
const ACCOUNT_LINK = /^(\/onboarding\/)[^/?#]+/;

/** A request URL as logs may show it: an account link's token, a one-time credential, replaced. */
export function loggedUrl(url: string): string {
  return url.replace(ACCOUNT_LINK, '$1[Redacted]');
}
