-- Into any LMS (issue 41, docs/lms.md): VR users gain the learner id an LMS knows them by, staff
-- export SCORM packages that each carry a package key, and a launch from the LMS waits for a
-- headset to claim its PIN.

ALTER TABLE vr_users ADD COLUMN external_id text;
-- One learner, one VR user per organisation; people without one are not compared.
CREATE UNIQUE INDEX vr_users_external_id ON vr_users (organization_id, external_id)
  WHERE external_id IS NOT NULL;

-- A package key: bound to one organisation and one level or one qualification. Only its hash is
-- kept (the key itself travels inside the exported zip); revoking stops new launches at once.
CREATE TABLE lms_package_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  level_id uuid REFERENCES levels (id) ON DELETE CASCADE,
  qualification_id uuid REFERENCES qualifications (id) ON DELETE CASCADE,
  key_hash text NOT NULL UNIQUE,
  scorm_version text NOT NULL CHECK (scorm_version IN ('1.2', '2004')),
  title text NOT NULL,
  created_by_email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  CHECK ((level_id IS NULL) <> (qualification_id IS NULL))
);
CREATE INDEX lms_package_keys_organization ON lms_package_keys (organization_id, created_at);

-- A launch: one learner opening the package once. Its PIN is unique among the organisation's
-- launches still waiting (checked under a lock when drawn); the launch token is kept as its hash.
CREATE TABLE lms_launches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  package_key_id uuid NOT NULL REFERENCES lms_package_keys (id) ON DELETE CASCADE,
  vr_user_id uuid NOT NULL REFERENCES vr_users (id) ON DELETE CASCADE,
  level_id uuid NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
  pin text NOT NULL,
  pin_expires_at timestamptz NOT NULL,
  token_hash text NOT NULL UNIQUE,
  session_id uuid REFERENCES sessions (id) ON DELETE SET NULL,
  claimed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lms_launches_pin ON lms_launches (organization_id, pin) WHERE claimed_at IS NULL;
CREATE INDEX lms_launches_learner ON lms_launches (package_key_id, vr_user_id, created_at);
