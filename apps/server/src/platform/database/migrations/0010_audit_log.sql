-- The audit log (docs/logging.md): one append-only table of events, written in the transaction of
-- the change each tells of. Each organisation's events, and the platform's (organization_id
-- null, chain 'platform'), form a hash chain: an event's hash covers its content and the hash of
-- the event before it in its chain (seq - 1), so an edited, removed or inserted row breaks the
-- chain where it happened (GET /v1/admin/audit/verify).
--
-- organization_id, actor_id and target_id are not foreign keys on purpose: the record outlives
-- what it tells of (a deleted account keeps its events, with the email and role it had).
CREATE TABLE audit_events (
  id uuid PRIMARY KEY,
  chain text NOT NULL,
  seq bigint NOT NULL,
  at timestamptz NOT NULL,
  organization_id uuid,
  actor_type text NOT NULL CHECK (actor_type IN ('account', 'headset', 'system')),
  actor_id uuid,
  actor_email text,
  actor_role text,
  action text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure', 'denied')),
  target_type text NOT NULL,
  target_id text,
  target_label text,
  changes jsonb NOT NULL DEFAULT '{}',
  ip text,
  user_agent text,
  request_id text,
  prev_hash text NOT NULL,
  hash text NOT NULL,
  CONSTRAINT audit_events_chain_seq_key UNIQUE (chain, seq)
);
-- The list is newest first by (at, id), filtered by organisation (staff: always), actor, target
-- or action prefix; the purge deletes by age.
CREATE INDEX audit_events_at_idx ON audit_events (at DESC, id DESC);
CREATE INDEX audit_events_organization_at_idx ON audit_events (organization_id, at DESC, id DESC);
CREATE INDEX audit_events_actor_at_idx ON audit_events (actor_id, at DESC, id DESC)
  WHERE actor_id IS NOT NULL;
CREATE INDEX audit_events_target_at_idx ON audit_events (target_id, at DESC, id DESC)
  WHERE target_id IS NOT NULL;
CREATE INDEX audit_events_action_at_idx ON audit_events (action text_pattern_ops, at DESC);

-- The head of each chain: the last seq and hash written. A writer locks its chain's row (UPDATE)
-- for the rest of its transaction, so writers of one chain take turns and each links to the one
-- committed before it; writers of different organisations never wait for each other.
CREATE TABLE audit_chain_heads (
  chain text PRIMARY KEY,
  seq bigint NOT NULL,
  hash text NOT NULL
);

-- Where each chain starts after a retention purge: the seq and hash of the last event deleted.
-- Verification starts from here instead of the chain's first event.
CREATE TABLE audit_checkpoints (
  chain text PRIMARY KEY,
  seq bigint NOT NULL,
  hash text NOT NULL,
  purged_at timestamptz NOT NULL
);

-- Nobody edits the record: UPDATE is refused always, DELETE and TRUNCATE except by the
-- retention purge, which says so in its own transaction (SET LOCAL vrtc.audit_purge = 'on').
-- The checkpoints are written by the purge alone (any INSERT, UPDATE or DELETE): a checkpoint
-- set by hand would move where verification starts and hide what lies before it.
CREATE FUNCTION vrtc_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' OR TG_TABLE_NAME = 'audit_checkpoints' THEN
    IF current_setting('vrtc.audit_purge', true) = 'on' THEN
      IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'the audit log is append-only: % on % refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION vrtc_audit_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION vrtc_audit_append_only();
CREATE TRIGGER audit_checkpoints_guarded BEFORE INSERT OR UPDATE OR DELETE ON audit_checkpoints
  FOR EACH ROW EXECUTE FUNCTION vrtc_audit_append_only();
