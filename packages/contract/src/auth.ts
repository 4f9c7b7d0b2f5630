import { Type, type Static } from 'typebox';
import { Nullable, Password, Role, Text, Uuid } from './common.ts';
import { MfaChallenge } from './mfa.ts';

export const LoginBody = Type.Object(
  {
    email: Text({ minLength: 1, maxLength: 254 }),
    password: Text({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

/**
 * A signed-in account changing its own password: the current one (checked like a sign-in's, so
 * as long as any password the sign-in takes) and the new one (the rule of every new password).
 */
export const OwnPasswordBody = Type.Object(
  {
    current_password: Text({ minLength: 1, maxLength: 200 }),
    new_password: Password,
  },
  { additionalProperties: false },
);
export type OwnPasswordBody = Static<typeof OwnPasswordBody>;

export const Me = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: Role,
  organization_id: Uuid,
  organization_name: Type.String(),
  /**
   * The account must have a second factor and has none yet: until it enrols one, this sign-in
   * reaches only its own enrolment (403 mfa_enrolment_required elsewhere).
   */
  mfa_enrolment_required: Type.Optional(Type.Boolean()),
});
export type Me = Static<typeof Me>;

/**
 * GET /v1/auth/session: whether the caller is signed in, without a refusal when it is not. The
 * console asks it on start: a signed-out visit of the sign-in page is answered 200 with
 * `signed_in: false` (GET /v1/me answers 401 to a caller without a sign-in, as scripts expect).
 */
export const SessionProbe = Type.Object({
  signed_in: Type.Boolean(),
  /** The signed-in account, as GET /v1/me answers it; null when signed out. */
  account: Nullable(Me),
});
export type SessionProbe = Static<typeof SessionProbe>;

/**
 * The signed-in account, and its bearer token for a client that is no browser page. A sign-in made
 * by a page (a request with an `Origin` header) gets the token only in the httpOnly sign-in cookie
 * (decision 025), never in the body, where the page's script could read it; a client without
 * `Origin` (scripts, the simulator, API users) gets `token` here, as always.
 */
export const LoginResponse = Type.Object({
  token: Type.Optional(
    Type.String({
      description:
        'the bearer token; absent when the request carried Origin (a browser page: the cookie holds it)',
    }),
  ),
  expires_at: Type.String({ format: 'date-time' }),
  id: Uuid,
  email: Type.String(),
  role: Role,
  organization_id: Uuid,
  organization_name: Type.String(),
  mfa_enrolment_required: Type.Optional(Type.Boolean()),
});
export type LoginResponse = Static<typeof LoginResponse>;

/**
 * A sign-in's answer: signed in, or (an account with a second factor) the challenge its second
 * step answers at POST /v1/auth/mfa/verify; no cookie and no token until then.
 */
export const LoginAnswer = Type.Union([LoginResponse, MfaChallenge]);
export type LoginAnswer = Static<typeof LoginAnswer>;

export const NullableString = Nullable(Type.String());

/** Where the console sends the browser to sign out at the OIDC provider as well. */
export const providerSignOutPath = (organizationId: string) =>
  `/v1/auth/sso/end-session?organization_id=${organizationId}`;

/**
 * POST /v1/auth/logout: the session ended. A session made by OIDC single sign-on is offered the
 * provider's sign-out (`provider_logout_url`, a console path that redirects to the provider's
 * end_session_endpoint, or to /login when it has none); the console follows it.
 */
export const LogoutAnswer = Type.Object({
  ok: Type.Literal(true),
  provider_logout_url: Type.Optional(Type.String()),
});
export type LogoutAnswer = Static<typeof LogoutAnswer>;

export const SsoEndSessionQuery = Type.Object(
  { organization_id: Uuid },
  { additionalProperties: false },
);

/**
 * The signed-in account's own settings (GET/PUT /v1/me/settings). `qualification_digest`: the
 * daily email of trainees who became expiring, expired or overdue (docs/compliance.md);
 * `language`: what its mails are written in (null: Russian). `mail_configured` tells whether the
 * server sends mail at all (SMTP_URL set): without it nothing is sent, whatever the setting.
 */
export const AccountSettings = Type.Object({
  qualification_digest: Type.Boolean(),
  language: Nullable(Type.Enum(['ru', 'en'])),
  mail_configured: Type.Boolean(),
});
export type AccountSettings = Static<typeof AccountSettings>;

export const AccountSettingsBody = Type.Object(
  {
    qualification_digest: Type.Optional(Type.Boolean()),
    language: Type.Optional(Nullable(Type.Enum(['ru', 'en']))),
  },
  { additionalProperties: false },
);
export type AccountSettingsBody = Static<typeof AccountSettingsBody>;
