/**
 * The token rides in the fragment: browsers never send a fragment to the server or in a Referer, so
 * it stays out of access logs and proxies; the invitation page moves it into its form.
 */
export function invitationUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/dashboard/invitation#${token}`;
}
