-- Personal API tokens (docs/api.md, "API tokens"): an account's own named bearer tokens for
-- scripts. They are sign-ins of the account like the console's (auth_tokens), so everything that
-- ends sign-ins ends them too, at once: revoking one, a password change, the account or its
-- organisation deactivated or deleted (their live streams close through auth_tokens'
-- access-change trigger, migration 0009). A row with a name is an API token; a console sign-in has
-- none. A token made without an end gets expires_at 9999-12-31 (api-tokens.ts, NO_END), shown as
-- null. last_used_at is written at most once a minute per token.
ALTER TABLE auth_tokens
  ADD COLUMN name text,
  ADD COLUMN last_used_at timestamptz;
CREATE INDEX auth_tokens_api_idx ON auth_tokens (account_id, created_at DESC)
  WHERE name IS NOT NULL;
