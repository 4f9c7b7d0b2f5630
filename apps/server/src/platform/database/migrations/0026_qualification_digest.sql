-- The daily email digest of qualifications (docs/compliance.md, decision 033).
--
-- Each account may turn the digest off, and may keep the language its mail is written in (null:
-- Russian, the console's default).
ALTER TABLE accounts ADD COLUMN qualification_digest boolean NOT NULL DEFAULT true;
ALTER TABLE accounts ADD COLUMN language text CHECK (language IN ('ru', 'en'));

-- One digest per organisation and UTC day. The process whose insert wins writes the day's mails
-- in the same transaction; any other process, or the same one after a restart, finds the row and
-- writes nothing. The next digest lists what changed after window_to.
CREATE TABLE qualification_digests (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- The UTC day, YYYY-MM-DD (text: no driver turns it into a local midnight).
  day text NOT NULL CHECK (day ~ '^\d{4}-\d{2}-\d{2}$'),
  window_from timestamptz NOT NULL,
  window_to timestamptz NOT NULL,
  entries integer NOT NULL,
  PRIMARY KEY (organization_id, day)
);

-- The mails of a digest, written as they will be sent. A sender takes one by setting
-- claimed_until (a conditional update: one process at a time), and sets sent_at once the SMTP
-- server took it; a mail never marked sent is taken again after claimed_until, up to 5 attempts.
CREATE TABLE qualification_digest_mails (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL,
  day text NOT NULL,
  account_id uuid,
  recipient text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  claimed_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  sent_at timestamptz,
  last_error text,
  FOREIGN KEY (organization_id, day) REFERENCES qualification_digests (organization_id, day)
    ON DELETE CASCADE,
  UNIQUE (organization_id, day, recipient)
);
CREATE INDEX qualification_digest_mails_unsent_idx ON qualification_digest_mails (created_at)
  WHERE sent_at IS NULL;

-- Qualifications read each trainee's completions (qualifications/standing.ts): the successes of
-- an organisation's sessions by trainee and level, with their end, from the index alone.
CREATE INDEX sessions_completions_idx ON sessions (organization_id, vr_user_id, level_id, ended_at)
  WHERE success IS TRUE;
