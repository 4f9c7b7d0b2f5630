import { Type, type Static } from 'typebox';
import { Nullable, Text, Timestamp } from './common.ts';

/**
 * An organisation's SCIM token (docs/sso.md): the bearer its directory (Entra ID, Okta) provisions
 * accounts with at `/scim/v2`. One per organisation; the secret is shown once and kept hashed.
 * The SCIM routes themselves speak RFC 7644, not this API: they are not in the route map.
 */

/** POST /v1/admin/organizations/:id/scim-token: a name to recognise it by in the audit log. */
export const ScimTokenBody = Type.Object(
  {
    /** Default "SCIM". */
    name: Type.Optional(Text({ nonBlank: true, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ScimTokenBody = Static<typeof ScimTokenBody>;

/** Whether the organisation has a token, and what is known of it; never the secret. */
export const ScimTokenState = Type.Object({
  exists: Type.Boolean(),
  name: Nullable(Type.String()),
  created_at: Nullable(Timestamp),
  last_used_at: Nullable(Timestamp),
  /** What the directory's admin enters as the tenant URL: `{PUBLIC_URL}/scim/v2`. */
  base_url: Type.String(),
});
export type ScimTokenState = Static<typeof ScimTokenState>;

/** A new token (issued or rotated): the only answer that carries the secret. */
export const ScimTokenIssued = Type.Object({
  token: Type.String(),
  name: Type.String(),
  created_at: Timestamp,
  base_url: Type.String(),
});
export type ScimTokenIssued = Static<typeof ScimTokenIssued>;
