import type { SsoError } from '@vrtc/contract';

/**
 * Why a single sign-on failed. Every failure is a redirect to the sign-in page with a stable code,
 * never an error page: the person is in a browser, sent here by the provider. The message is the
 * exact reason, which a platform admin's test sign-in shows.
 */
export class SsoFailure extends Error {
  constructor(
    readonly code: SsoError,
    message: string,
  ) {
    super(message);
  }
}

export const failurePath = (code: SsoError) => `/login?sso_error=${code}`;
