import { IdParams, OkBody } from './common.ts';
import { LoginResponse } from './auth.ts';
import {
  MfaPolicy,
  MfaProofBody,
  MfaResetBody,
  MfaStatus,
  MfaTokenBody,
  MfaVerifyBody,
  PasskeyRegisterBody,
  PasskeyRegistered,
  RecoveryCodes,
  TotpConfirmBody,
  TotpEnrolment,
  WebAuthnOptions,
} from './mfa.ts';
import { defineRoute } from './route-map.ts';
import { routeTable } from './route-table.ts';

/**
 * The routes of multi-factor sign-in (decision 031), part of `routes`: the caller's own factors
 * (any role: every password account may have them), the sign-in's second step, and the platform
 * admin's policy and reset.
 */
export const mfaRoutes = {
  mfaStatus: defineRoute({
    ...routeTable.mfaStatus,
    access: 'reader',
    tags: ['mfa'],
    success: { status: 200, body: MfaStatus },
    errors: [],
  }),
  startTotp: defineRoute({
    ...routeTable.startTotp,
    access: 'reader',
    tags: ['mfa'],
    description:
      'Begins an authenticator app enrolment with a new secret (replacing one not yet confirmed); ' +
      'nothing is asked at sign-in until it is confirmed with a code. Refused (conflict) while ' +
      'one is confirmed: remove it first.',
    success: { status: 200, body: TotpEnrolment },
    errors: ['conflict'],
  }),
  confirmTotp: defineRoute({
    ...routeTable.confirmTotp,
    access: 'reader',
    tags: ['mfa'],
    description:
      'Confirms the enrolment with a code of the app. Answers 10 recovery codes, shown this ' +
      'once, when the account had none. Wrong codes count as failed sign-ins.',
    body: TotpConfirmBody,
    success: { status: 200, body: RecoveryCodes },
    errors: ['mfa_invalid', 'not_found', 'rate_limited'],
  }),
  removeTotp: defineRoute({
    ...routeTable.removeTotp,
    access: 'reader',
    tags: ['mfa'],
    description: 'Removes the authenticator app, given the password or a code (app or recovery).',
    body: MfaProofBody,
    success: { status: 200, body: OkBody },
    errors: ['mfa_invalid', 'not_found', 'rate_limited', 'mfa_enrolment_required'],
  }),
  renewRecoveryCodes: defineRoute({
    ...routeTable.renewRecoveryCodes,
    access: 'reader',
    tags: ['mfa'],
    description: 'Replaces every recovery code with 10 new ones, given the password or a code.',
    body: MfaProofBody,
    success: { status: 200, body: RecoveryCodes },
    errors: ['mfa_invalid', 'rate_limited'],
  }),
  passkeyRegistrationOptions: defineRoute({
    ...routeTable.passkeyRegistrationOptions,
    access: 'reader',
    tags: ['mfa'],
    description:
      'Options for navigator.credentials.create (a challenge valid 5 minutes); the relying ' +
      'party is PUBLIC_URL’s host (or the request’s).',
    success: { status: 200, body: WebAuthnOptions },
    errors: [],
  }),
  addPasskey: defineRoute({
    ...routeTable.addPasskey,
    access: 'reader',
    tags: ['mfa'],
    description:
      'Registers the passkey the browser made for the last options, under a name. Answers 10 ' +
      'recovery codes, shown this once, when the account had none.',
    body: PasskeyRegisterBody,
    success: { status: 201, body: PasskeyRegistered },
    errors: ['mfa_invalid'],
  }),
  removePasskey: defineRoute({
    ...routeTable.removePasskey,
    access: 'reader',
    tags: ['mfa'],
    params: IdParams,
    success: { status: 200, body: OkBody },
    errors: ['not_found', 'mfa_enrolment_required'],
  }),
  verifyMfa: defineRoute({
    ...routeTable.verifyMfa,
    access: 'public',
    tags: ['auth', 'mfa'],
    description:
      'The sign-in’s second step: the mfa_token of the sign-in’s answer and one of an ' +
      'authenticator code, a recovery code (each works once) or a passkey’s assertion. Answers ' +
      'as POST /v1/auth/login does (the cookie, and the token without Origin). Wrong answers ' +
      'count as failed sign-ins, under the same limits.',
    body: MfaVerifyBody,
    success: { status: 200, body: LoginResponse },
    errors: ['mfa_invalid', 'rate_limited', 'cross_site_request'],
  }),
  mfaPasskeyOptions: defineRoute({
    ...routeTable.mfaPasskeyOptions,
    access: 'public',
    tags: ['auth', 'mfa'],
    description: 'Options for navigator.credentials.get for the sign-in named by mfa_token.',
    body: MfaTokenBody,
    success: { status: 200, body: WebAuthnOptions },
    errors: ['mfa_invalid'],
  }),
  resetAccountMfa: defineRoute({
    ...routeTable.resetAccountMfa,
    access: 'admin',
    tags: ['mfa', 'admin'],
    description:
      'A platform admin removes every second factor of an account (its holder lost them), with ' +
      'the reason, which the audit log keeps. Its sign-ins end.',
    params: IdParams,
    body: MfaResetBody,
    success: { status: 200, body: OkBody },
    errors: ['not_found'],
  }),
  getMfaPolicy: defineRoute({
    ...routeTable.getMfaPolicy,
    access: 'admin',
    tags: ['mfa', 'admin'],
    success: { status: 200, body: MfaPolicy },
    errors: [],
  }),
  putMfaPolicy: defineRoute({
    ...routeTable.putMfaPolicy,
    access: 'admin',
    tags: ['mfa', 'admin'],
    description: 'Whether platform admins must have a second factor (organisations: mfa_required).',
    body: MfaPolicy,
    success: { status: 200, body: MfaPolicy },
    errors: [],
  }),
} as const;
