-- SCIM 2.0 provisioning (docs/sso.md, issue 38): the organisation's directory (Entra ID, Okta)
-- creates, changes and deactivates its staff's accounts with a bearer token a platform admin
-- issued.

-- One token per organisation, shown once: only its SHA-256 is kept (a copy of the database does
-- not let anyone provision). Rotating replaces the row; revoking deletes it.
CREATE TABLE scim_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL UNIQUE REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);

-- What the directory tells of a person beyond the email (userName): its own id for them and
-- their name. Null for accounts no directory provisioned.
ALTER TABLE accounts ADD COLUMN external_id text;
ALTER TABLE accounts ADD COLUMN given_name text;
ALTER TABLE accounts ADD COLUMN family_name text;
ALTER TABLE accounts ADD COLUMN display_name text;
CREATE INDEX accounts_organization_external_id ON accounts (organization_id, external_id)
  WHERE external_id IS NOT NULL;

-- The audit log names a SCIM token as the actor of the changes made with it.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check
  CHECK (actor_type IN ('account', 'headset', 'system', 'scim_token'));
