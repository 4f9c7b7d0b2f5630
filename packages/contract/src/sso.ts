import { Type, type Static } from 'typebox';
import { Email, Text, Timestamp, Uuid } from './common.ts';

/**
 * Single sign-on per organisation (docs/sso.md): a platform admin enters the organisation's
 * identity provider; its staff then sign in there, found by email in that organisation only.
 */
export const SSO_PROTOCOLS = ['oidc'] as const;
export const SsoProtocol = Type.Enum(SSO_PROTOCOLS);
export type SsoProtocol = Static<typeof SsoProtocol>;

/**
 * The role an account created at its first single sign-on (jit) gets: staff, or an inspector's
 * read-only account. Never a platform admin.
 */
export const SSO_DEFAULT_ROLES = ['client', 'auditor'] as const;
export const SsoDefaultRole = Type.Enum(SSO_DEFAULT_ROLES);
export type SsoDefaultRole = Static<typeof SsoDefaultRole>;

/** A bare, lower-case DNS name: `example.com`, never `@example.com` or a URL. */
/** A host name of letters, digits and dashes, as the server holds each domain to (400 otherwise). */
export const EMAIL_DOMAIN_PATTERN =
  '^(?=.{3,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z]{2,63}$';
export const EmailDomain = Text({ minLength: 3, maxLength: 253 });

/** Text the database can store; the server holds it to an http(s) URL (400 otherwise). */
const HttpUrl = Text({ maxLength: 2000 });

const common = {
  email_domains: Type.Array(EmailDomain, { minItems: 1, maxItems: 50 }),
  /** Password sign-in of the organisation's accounts is refused (sso_required), exempt ones aside. */
  enforced: Type.Boolean(),
  /** A person the provider vouches for, with no account yet, gets one (default_role). */
  jit: Type.Boolean(),
  default_role: SsoDefaultRole,
};

/** PUT /v1/admin/organizations/:id/sso: the whole configuration, replacing any before. */
export const SsoConfigBody = Type.Object(
  {
    protocol: Type.Literal('oidc'),
    /** The provider's issuer; its /.well-known/openid-configuration is read from it. */
    issuer: HttpUrl,
    client_id: Text({ nonBlank: true, maxLength: 500 }),
    client_secret: Text({ nonBlank: true, maxLength: 2000 }),
    ...common,
  },
  { additionalProperties: false },
);
export type SsoConfigBody = Static<typeof SsoConfigBody>;

/** The configuration as stored; the client secret never comes back, only whether one is set. */
export const SsoConfig = Type.Object({
  organization_id: Uuid,
  protocol: SsoProtocol,
  issuer: Type.String(),
  client_id: Type.String(),
  client_secret_set: Type.Boolean(),
  ...common,
  /** What the provider's admin enters as the redirect URI: `{PUBLIC_URL}/v1/auth/sso/callback`. */
  redirect_uri: Type.String(),
  updated_at: Timestamp,
});
export type SsoConfig = Static<typeof SsoConfig>;

/**
 * Why a single sign-on failed: the console's sign-in page gets `/login?sso_error=<code>` and
 * says it in the person's language (docs/sso.md).
 */
export const SSO_ERRORS = [
  'not_configured',
  'provider_error',
  'invalid_state',
  'invalid_response',
  'email_not_allowed',
  'no_account',
  'account_inactive',
] as const;
export type SsoError = (typeof SSO_ERRORS)[number];

/** A console path to come back to: one leading slash, never another site or the API. */
export const RETURN_TO_PATTERN = '^/(?![/\\\\])(?!v1/)[^\\s]*$';

export const SsoStartQuery = Type.Object(
  {
    email: Type.Optional(Email),
    organization_id: Type.Optional(Uuid),
    // Text the database can store; the server then holds it to RETURN_TO_PATTERN (400 otherwise).
    return_to: Type.Optional(Text({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type SsoStartQuery = Static<typeof SsoStartQuery>;

/** What the provider sends back; other parameters (iss, session_state) are read as they come. */
export const SsoCallbackQuery = Type.Object(
  {
    state: Type.Optional(Text({ maxLength: 500 })),
    code: Type.Optional(Text({ maxLength: 4000 })),
    error: Type.Optional(Text({ maxLength: 500 })),
  },
  { additionalProperties: true },
);
