-- Single sign-on per organisation (docs/sso.md, issue 38): the organisation's identity provider,
-- the email domains it answers for, the sign-ins in flight, and the accounts exempt from it.

CREATE TABLE sso_configs (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  protocol text NOT NULL CHECK (protocol IN ('oidc', 'saml')),
  issuer text,
  client_id text,
  -- AES-256-GCM under a key kept outside the database (DATA_DIR/sso-key): a copy of the database
  -- alone does not give the provider's client secret.
  client_secret_encrypted text,
  enforced boolean NOT NULL DEFAULT false,
  jit boolean NOT NULL DEFAULT false,
  default_role text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (protocol <> 'oidc' OR (issuer IS NOT NULL AND client_id IS NOT NULL
    AND client_secret_encrypted IS NOT NULL))
);

-- One email domain, one organisation: the primary key says so whoever writes.
CREATE TABLE sso_email_domains (
  domain text PRIMARY KEY CHECK (domain = lower(domain)),
  organization_id uuid NOT NULL REFERENCES sso_configs (organization_id) ON DELETE CASCADE
);
CREATE INDEX sso_email_domains_organization ON sso_email_domains (organization_id);

-- A sign-in sent to the provider and not yet back: state, nonce and PKCE verifier, used once.
CREATE TABLE sso_sign_ins (
  state text PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  return_to text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_sign_ins_expires ON sso_sign_ins (expires_at);

-- Break-glass: an account a platform admin lets sign in by password when SSO is enforced.
ALTER TABLE accounts ADD COLUMN sso_exempt boolean NOT NULL DEFAULT false;
