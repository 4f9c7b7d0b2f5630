import { Type, type Static } from 'typebox';
import { API_TOKEN_NAME_MAX_LENGTH } from './api-token-limits.ts';
import { Nullable, Text, Timestamp, Uuid } from './common.ts';

/**
 * Personal API tokens (docs/api.md, "API tokens"): an account's own bearer tokens for scripts,
 * each named, acting as the account with its role and organisation (an auditor's token reads
 * only, as the auditor does). The secret is shown once, when made; the server keeps its hash.
 */
export { API_TOKEN_NAME_MAX_LENGTH, API_TOKENS_PER_ACCOUNT } from './api-token-limits.ts';

export const ApiToken = Type.Object({
  id: Uuid,
  name: Type.String(),
  created_at: Timestamp,
  /** When a request last used it (to the minute); null: never. */
  last_used_at: Nullable(Timestamp),
  /** null: until revoked. */
  expires_at: Nullable(Timestamp),
});
export type ApiToken = Static<typeof ApiToken>;

export const ApiTokenList = Type.Object({ api_tokens: Type.Array(ApiToken) });
export type ApiTokenList = Static<typeof ApiTokenList>;

export const CreateApiTokenBody = Type.Object(
  {
    name: Text({ maxLength: API_TOKEN_NAME_MAX_LENGTH, nonBlank: true }),
    /** In the future; left out: the token lasts until revoked. */
    expires_at: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type CreateApiTokenBody = Static<typeof CreateApiTokenBody>;

/** The token made, with its secret: the one time it is shown. */
export const CreatedApiToken = Type.Object({ ...ApiToken.properties, token: Type.String() });
export type CreatedApiToken = Static<typeof CreatedApiToken>;
