import { Type, type Static } from 'typebox';
import { Text, Timestamp, Uuid } from './common.ts';

/**
 * Single sign-on per organisation (docs/sso.md): a platform admin enters the organisation's
 * identity provider; its staff then sign in there, found by email in that organisation only.
 */
export const SSO_PROTOCOLS = ['oidc'] as const;
export const SsoProtocol = Type.Enum(SSO_PROTOCOLS);
export type SsoProtocol = Static<typeof SsoProtocol>;

/**
 * The role an account created at its first single sign-on (jit) gets. One list, so a new role
 * (an auditor) is added here and nowhere else.
 */
export const SSO_DEFAULT_ROLES = ['client'] as const;
export const SsoDefaultRole = Type.Enum(SSO_DEFAULT_ROLES);
export type SsoDefaultRole = Static<typeof SsoDefaultRole>;

/** A bare, lower-case DNS name: `example.com`, never `@example.com` or a URL. */
export const EmailDomain = Type.String({
  minLength: 3,
  maxLength: 253,
  pattern: '^(?=.{3,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z]{2,63}$',
});

const HttpUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 });

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
