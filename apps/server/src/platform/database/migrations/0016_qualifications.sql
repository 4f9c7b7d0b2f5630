-- Qualifications (docs/compliance.md) and the auditor's account.
--
-- `auditor`: an inspector's account of one organisation, which reads and changes nothing.
ALTER TABLE accounts DROP CONSTRAINT accounts_role_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_role_check
  CHECK (role IN ('admin', 'client', 'auditor'));

-- What an organisation requires: levels to pass, and perhaps a signed practical evaluation, for
-- validity_days (null: never lapses). Deleting archives (archived_at): records keep showing it.
CREATE TABLE qualifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  name_en text,
  description text,
  validity_days integer CHECK (validity_days BETWEEN 1 AND 3650),
  expiring_within_days integer NOT NULL DEFAULT 30 CHECK (expiring_within_days BETWEEN 0 AND 365),
  evaluation_required boolean NOT NULL DEFAULT false,
  archived_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX qualifications_organization_idx ON qualifications (organization_id, lower(name), id)
  WHERE archived_at IS NULL;

-- The levels a qualification requires. Not a foreign key: a level deleted later stays required
-- (nothing done before can be said to cover it), and the qualification shows it.
CREATE TABLE qualification_levels (
  qualification_id uuid NOT NULL REFERENCES qualifications (id) ON DELETE CASCADE,
  level_id uuid NOT NULL,
  PRIMARY KEY (qualification_id, level_id)
);

-- Who must hold a qualification, by when.
CREATE TABLE qualification_assignments (
  qualification_id uuid NOT NULL REFERENCES qualifications (id) ON DELETE CASCADE,
  vr_user_id uuid NOT NULL REFERENCES vr_users (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  due_at timestamptz,
  assigned_at timestamptz NOT NULL,
  PRIMARY KEY (qualification_id, vr_user_id)
);
CREATE INDEX qualification_assignments_vr_user_idx ON qualification_assignments (vr_user_id);
CREATE INDEX qualification_assignments_organization_idx
  ON qualification_assignments (organization_id, qualification_id);

-- A signed practical evaluation. The signature (signer's name and email, time, meaning, result)
-- is kept as signed: signer_account_id is no foreign key, and nothing updates a row.
CREATE TABLE qualification_evaluations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  qualification_id uuid NOT NULL REFERENCES qualifications (id) ON DELETE CASCADE,
  vr_user_id uuid NOT NULL REFERENCES vr_users (id) ON DELETE CASCADE,
  result text NOT NULL CHECK (result IN ('pass', 'fail')),
  meaning text NOT NULL,
  notes text,
  signer_account_id uuid,
  signer_name text NOT NULL,
  signer_email text NOT NULL,
  signed_at timestamptz NOT NULL
);
CREATE INDEX qualification_evaluations_vr_user_idx
  ON qualification_evaluations (vr_user_id, qualification_id, signed_at);

-- A qualification taken away (an incident, a failed check on the job): only pieces done after it
-- count.
CREATE TABLE qualification_revocations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  qualification_id uuid NOT NULL REFERENCES qualifications (id) ON DELETE CASCADE,
  vr_user_id uuid NOT NULL REFERENCES vr_users (id) ON DELETE CASCADE,
  reason text NOT NULL,
  revoked_at timestamptz NOT NULL,
  revoked_by_account_id uuid,
  revoked_by_email text
);
CREATE INDEX qualification_revocations_vr_user_idx
  ON qualification_revocations (vr_user_id, qualification_id, revoked_at);

-- Each award (a moment the set of pieces became complete, derived from the record) and its
-- certificate code. A derived cache: the award's moment is the record's, never typed in; the row
-- only gives it a code that stays the same.
CREATE TABLE qualification_awards (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  qualification_id uuid NOT NULL REFERENCES qualifications (id) ON DELETE CASCADE,
  vr_user_id uuid NOT NULL REFERENCES vr_users (id) ON DELETE CASCADE,
  earned_at timestamptz NOT NULL,
  certificate_code text NOT NULL UNIQUE,
  CONSTRAINT qualification_awards_key UNIQUE (qualification_id, vr_user_id, earned_at)
);

-- The outgoing events told of each award and state (qualification.earned, .expiring, .expired,
-- .revoked): once each. The notice and its outbox event are written in one transaction and this
-- key makes any other process, or a later run, write nothing. `moment` is the award's earned_at
-- (the revocation's moment for revoked).
CREATE TABLE qualification_notices (
  qualification_id uuid NOT NULL REFERENCES qualifications (id) ON DELETE CASCADE,
  vr_user_id uuid NOT NULL REFERENCES vr_users (id) ON DELETE CASCADE,
  moment timestamptz NOT NULL,
  state text NOT NULL CHECK (state IN ('earned', 'expiring', 'expired', 'revoked')),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  sent_at timestamptz NOT NULL,
  PRIMARY KEY (qualification_id, vr_user_id, moment, state)
);
