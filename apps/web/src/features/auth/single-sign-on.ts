/**
 * The sign-in page's way to the organisation's identity provider (docs/sso.md): a full-page
 * navigation to the server, which answers 302 to the provider, or back to
 * /login?sso_error=<code> when it cannot.
 */
export const SSO_ERROR_CODES = [
  'not_configured',
  'provider_error',
  'invalid_state',
  'invalid_response',
  'email_not_allowed',
  'no_account',
  'account_inactive',
  'reauth_mismatch',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

export function ssoStartUrl(email: string, returnTo: string): string {
  const query = new URLSearchParams({ email: email.trim(), return_to: returnTo });
  return `/v1/auth/sso/start?${query.toString()}`;
}

/** The code of a failed single sign-on the server sent the browser back with, if any. */
export function ssoErrorOf(search: string): SsoErrorCode | undefined {
  const code = new URLSearchParams(search).get('sso_error');
  return (SSO_ERROR_CODES as readonly string[]).includes(code ?? '')
    ? (code as SsoErrorCode)
    : undefined;
}

/** Leaves the console for the provider (a test replaces it). */
export const goTo = { href: (url: string) => window.location.assign(url) };
