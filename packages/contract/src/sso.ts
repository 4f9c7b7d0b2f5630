import { Type, type Static } from 'typebox';
import { Email, Role, Text, Timestamp, Uuid } from './common.ts';

/**
 * Single sign-on per organisation (docs/sso.md): a platform admin enters the organisation's
 * identity provider; its staff then sign in there, found by email in that organisation only.
 */
export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
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

/** PUT /v1/admin/organizations/:id/sso with OIDC: the whole configuration, replacing any before. */
export const OidcConfigBody = Type.Object(
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

/**
 * PUT with SAML: the provider's metadata document as its admin downloads it, or its sign-on URL
 * and signing certificate (PEM or bare base64) entered by hand (400 when neither is complete).
 */
export const SamlConfigBody = Type.Object(
  {
    protocol: Type.Literal('saml'),
    idp_metadata_xml: Type.Optional(Text({ nonBlank: true, maxLength: 200_000 })),
    entry_point: Type.Optional(HttpUrl),
    idp_certificate: Type.Optional(Text({ nonBlank: true, maxLength: 20_000 })),
    ...common,
  },
  { additionalProperties: false },
);

export const SsoConfigBody = Type.Union([OidcConfigBody, SamlConfigBody]);
export type SsoConfigBody = Static<typeof SsoConfigBody>;
export type OidcConfigBody = Static<typeof OidcConfigBody>;
export type SamlConfigBody = Static<typeof SamlConfigBody>;

/**
 * The configuration as stored; the client secret never comes back, only whether one is set.
 * OIDC fields are empty for SAML and SAML fields empty for OIDC.
 */
export const SsoConfig = Type.Object({
  organization_id: Uuid,
  protocol: SsoProtocol,
  issuer: Type.String(),
  client_id: Type.String(),
  client_secret_set: Type.Boolean(),
  ...common,
  /** What the provider's admin enters as the redirect URI: `{PUBLIC_URL}/v1/auth/sso/callback`. */
  redirect_uri: Type.String(),
  /** SAML: the provider's entity ID (from its metadata), sign-on URL and signing certificate. */
  idp_entity_id: Type.String(),
  entry_point: Type.String(),
  idp_certificate: Type.String(),
  /** SAML: the console's assertion consumer service, `{PUBLIC_URL}/v1/auth/sso/saml/acs`. */
  acs_url: Type.String(),
  /** SAML: the console's entity ID, which is also its metadata's URL. */
  sp_entity_id: Type.String(),
  sp_metadata_url: Type.String(),
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
  'reauth_mismatch',
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

/** GET /v1/auth/sso/discover: the email typed on the sign-in page, before any password. */
export const SsoDiscoverQuery = Type.Object({ email: Email }, { additionalProperties: false });
export type SsoDiscoverQuery = Static<typeof SsoDiscoverQuery>;

/**
 * Whether the email's domain signs in by single sign-on, and whether only by it. Nothing else (no
 * organisation, no protocol, no account): the page only needs to know which button to show.
 */
export const SsoDiscoverBody = Type.Object(
  { sso: Type.Boolean(), enforced: Type.Boolean() },
  { additionalProperties: false },
);
export type SsoDiscoverBody = Static<typeof SsoDiscoverBody>;

/** What the provider sends back; other parameters (iss, session_state) are read as they come. */
export const SsoCallbackQuery = Type.Object(
  {
    state: Type.Optional(Text({ maxLength: 500 })),
    code: Type.Optional(Text({ maxLength: 4000 })),
    error: Type.Optional(Text({ maxLength: 500 })),
  },
  { additionalProperties: true },
);

/** POST /v1/auth/sso/saml/acs: the identity provider's answer, posted by the browser (a form). */
export const SamlAcsBody = Type.Object(
  {
    SAMLResponse: Text({ nonBlank: true, maxLength: 500_000 }),
    RelayState: Type.Optional(Text({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);
export type SamlAcsBody = Static<typeof SamlAcsBody>;

export const SamlMetadataParams = Type.Object(
  { organizationId: Uuid },
  { additionalProperties: false },
);

/** GET /v1/auth/sso/reauth: where to come back once the provider has asked again. */
export const SsoReauthQuery = Type.Object(
  { return_to: Type.Optional(Text({ maxLength: 2000 })) },
  { additionalProperties: false },
);

/**
 * What would happen to the person a test sign-in brought back (nobody is signed in): signs in to
 * an existing account, gets one made (jit), or is refused: no account and jit off, an email outside
 * the organisation's domains, of another organisation's account, of a platform admin, or of a
 * deactivated account or organisation.
 */
export const SSO_TEST_OUTCOMES = [
  'existing_account',
  'would_create',
  'no_account',
  'domain_not_allowed',
  'other_organization',
  'platform_admin',
  'account_inactive',
] as const;
export const SsoTestOutcome = Type.Enum(SSO_TEST_OUTCOMES);
export type SsoTestOutcome = Static<typeof SsoTestOutcome>;

/**
 * What a platform admin's test sign-in saw: the claims and what would happen to that person, or
 * the failure's stable code and its technical detail. The console words the codes itself.
 */
export const SsoTestResult = Type.Object({
  ok: Type.Boolean(),
  protocol: SsoProtocol,
  /** The claims (OIDC) or the assertion's NameID and attributes (SAML) when ok. */
  claims: Type.Record(Type.String(), Type.Unknown()),
  /** When ok: what would happen to that person here (the account lookup, nobody is signed in). */
  outcome: Type.Union([SsoTestOutcome, Type.Null()]),
  /** When ok: the email the provider vouched for, lower-cased. */
  email: Type.Union([Type.String(), Type.Null()]),
  /** When ok: the existing account's role, or the role a jit account would get; else null. */
  role: Type.Union([Role, Type.Null()]),
  /** When not ok: why (one of SSO_ERRORS). */
  code: Type.Union([Type.Enum(SSO_ERRORS), Type.Null()]),
  /** When not ok: the check that refused, or the provider's own error text, as it came. */
  detail: Type.Union([Type.String(), Type.Null()]),
});
export type SsoTestResult = Static<typeof SsoTestResult>;

export const SsoTestParams = Type.Object(
  { id: Uuid, testId: Text({ nonBlank: true, maxLength: 200 }) },
  { additionalProperties: false },
);
