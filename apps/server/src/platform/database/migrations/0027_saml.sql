-- SAML beside OIDC (docs/sso.md, issue 38, decision 034): the identity provider's sign-on URL and
-- signing certificates, the requests in flight of either protocol (what they are for), and the
-- assertions already taken, so that none is taken twice.

ALTER TABLE sso_configs ADD COLUMN idp_entity_id text;
ALTER TABLE sso_configs ADD COLUMN entry_point text;
-- PEM certificates of the provider's signing keys, one after another (public keys, not secrets).
ALTER TABLE sso_configs ADD COLUMN idp_certificate text;
ALTER TABLE sso_configs ADD CONSTRAINT sso_configs_saml_settings
  CHECK (protocol <> 'saml' OR (entry_point IS NOT NULL AND idp_certificate IS NOT NULL));

-- A SAML request has no nonce nor PKCE verifier: its state is the AuthnRequest's ID.
ALTER TABLE sso_sign_ins ALTER COLUMN nonce DROP NOT NULL;
ALTER TABLE sso_sign_ins ALTER COLUMN code_verifier DROP NOT NULL;
ALTER TABLE sso_sign_ins ADD COLUMN protocol text NOT NULL DEFAULT 'oidc'
  CHECK (protocol IN ('oidc', 'saml'));
-- sign_in: a person signing in; test: a platform admin's test sign-in (nobody is signed in, the
-- result is kept on the row until it expires); reauth: a signed-in account proving itself again.
ALTER TABLE sso_sign_ins ADD COLUMN purpose text NOT NULL DEFAULT 'sign_in'
  CHECK (purpose IN ('sign_in', 'test', 'reauth'));
ALTER TABLE sso_sign_ins ADD COLUMN auth_token_id uuid REFERENCES auth_tokens (id) ON DELETE CASCADE;
ALTER TABLE sso_sign_ins ADD COLUMN result jsonb;

-- Assertions taken, until they could no longer be accepted anyway (NotOnOrAfter + skew).
CREATE TABLE saml_assertions_used (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  assertion_id text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, assertion_id)
);
CREATE INDEX saml_assertions_used_expires ON saml_assertions_used (expires_at);

-- A console session made by single sign-on remembers by which protocol (sign-out offers the OIDC
-- provider's), and holds a fresh re-authentication at the provider for a few minutes, used once
-- by a signature instead of a password.
ALTER TABLE auth_tokens ADD COLUMN sso_protocol text CHECK (sso_protocol IN ('oidc', 'saml'));
ALTER TABLE auth_tokens ADD COLUMN sso_fresh_until timestamptz;
