-- Multi-factor sign-in (issue 40 item 12, decision 031): TOTP, recovery codes and passkeys of
-- password accounts, the sign-ins waiting for their second factor, and who must have one.

-- One authenticator app per account. Until confirmed with a code (confirmed_at) it is only an
-- enrolment in progress and asks nothing at sign-in. The secret is sealed (AES-256-GCM) under a
-- key kept outside the database (DATA_DIR/mfa-key). last_step: the last time step a code was
-- taken for, so a code is taken once.
CREATE TABLE mfa_totp (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  secret_sealed text NOT NULL,
  created_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  last_step bigint
);

-- Ten one-use codes, shown once, kept as SHA-256 hashes (they are 50+ random bits, not passwords).
CREATE TABLE mfa_recovery_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX mfa_recovery_codes_account ON mfa_recovery_codes (account_id);

-- Passkeys (WebAuthn credentials): the public key only; the private key never leaves the
-- authenticator.
CREATE TABLE mfa_passkeys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text NOT NULL DEFAULT '[]',
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX mfa_passkeys_account ON mfa_passkeys (account_id);

-- A sign-in whose password was right, waiting for its second factor (5 minutes, used once), or a
-- WebAuthn registration waiting for the authenticator's answer. Only the token's hash is kept.
CREATE TABLE mfa_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('sign_in', 'register')),
  webauthn_challenge text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX mfa_challenges_expires ON mfa_challenges (expires_at);

-- A sign-in of an account that must have a second factor and has none: it may only enrol one.
ALTER TABLE auth_tokens ADD COLUMN mfa_enrolment_only boolean NOT NULL DEFAULT false;

-- Who must have a second factor: the staff of an organisation that says so, and platform admins
-- when the platform's setting says so.
ALTER TABLE organizations ADD COLUMN mfa_required boolean NOT NULL DEFAULT false;

CREATE TABLE platform_settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  mfa_required_for_admins boolean NOT NULL DEFAULT false
);
INSERT INTO platform_settings (id) VALUES (1);
