-- The audit chain can no longer be cut by the application's own database session (issue 40,
-- item 7; decision 032). Until now any session could say `SET LOCAL vrtc.audit_purge = 'on'` and
-- then delete events and write a checkpoint, which verify took on trust. Now:
--
-- * Events, links and checkpoints are removed or written only by vrtc_audit_purge, a SECURITY
--   DEFINER function: the append-only trigger lets a DELETE (or a checkpoint's write) through
--   only when the statement runs inside that function itself (the call stack, PG_CONTEXT, ends in
--   it) AS its owner (current_user is the owner of the function of the table's schema). A setting
--   any session may set no longer counts. Where the function and the audit tables belong to a role
--   the application's role cannot become, with EXECUTE granted to the application
--   (docs/operations.md), the application's session can purge only through it; where one role owns
--   everything (the embedded database, or a single-role PostgreSQL), the stack check still refuses
--   a plain DELETE, but that role could drop the trigger: the checkpoint's signature is then what
--   catches it.
-- * A checkpoint carries a signature: HMAC-SHA256 under AUDIT_KEY, a key kept outside the database
--   (an environment variable or a file in DATA_DIR), computed by the server (audit-purge.ts).
--   The function cannot check it (the key never reaches the database); verify does, and refuses a
--   checkpoint whose signature is missing or does not match.
ALTER TABLE audit_checkpoints ADD COLUMN signature text;

CREATE OR REPLACE FUNCTION vrtc_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_stack text;
  v_outermost text;
  v_owner oid;
BEGIN
  IF TG_OP <> 'UPDATE' OR TG_TABLE_NAME = 'audit_checkpoints' THEN
    GET DIAGNOSTICS v_stack = PG_CONTEXT;
    -- The call that started it all: the last line of the stack. A statement sent by a client
    -- adds none, so this is the purge function only when the client called it.
    v_outermost := (regexp_split_to_array(v_stack, E'\n'))[
      array_length(regexp_split_to_array(v_stack, E'\n'), 1)];
    SELECT p.proowner INTO v_owner FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = TG_TABLE_SCHEMA AND p.proname = 'vrtc_audit_purge';
    IF v_outermost ~ '^PL/pgSQL function vrtc_audit_purge\([^)]*\) line [0-9]+ at SQL statement$'
      AND v_owner IS NOT NULL
      AND (SELECT oid FROM pg_roles WHERE rolname = current_user) = v_owner THEN
      IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'the audit log is append-only: % on % refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege',
      HINT = 'Events are removed by the retention purge alone (vrtc_audit_purge).';
END
$$;

-- The retention purge of one chain (audit-purge.ts): deletes its events up to p_last (and the
-- linker's links of them) and moves its checkpoint onto the event at p_last, whose hash must be
-- p_hash, with the signature the server computed. Answers how many events went. Run as its owner
-- (SECURITY DEFINER) with the search path it was made with.
CREATE FUNCTION vrtc_audit_purge(
  p_chain text,
  p_last bigint,
  p_hash text,
  p_purged_at timestamptz,
  p_signature text
) RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  v_count integer;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM audit_events e LEFT JOIN audit_links l ON l.event_id = e.id
    WHERE e.chain = p_chain AND COALESCE(e.seq, l.seq) = p_last
      AND COALESCE(e.hash, l.hash) = p_hash
  ) THEN
    RAISE EXCEPTION 'audit purge: chain % has no event % with that hash', p_chain, p_last
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  WITH linked AS (
    DELETE FROM audit_links WHERE chain = p_chain AND seq <= p_last RETURNING event_id
  ), events AS (
    DELETE FROM audit_events WHERE chain = p_chain
      AND (seq <= p_last OR id IN (SELECT event_id FROM linked))
    RETURNING 1
  )
  SELECT count(*)::integer INTO v_count FROM events;
  INSERT INTO audit_checkpoints (chain, seq, hash, purged_at, signature)
    VALUES (p_chain, p_last, p_hash, p_purged_at, p_signature)
    ON CONFLICT (chain) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash,
      purged_at = EXCLUDED.purged_at, signature = EXCLUDED.signature;
  RETURN v_count;
END
$$;
-- Nobody calls it unless granted (docs/operations.md: GRANT EXECUTE to the application's role).
REVOKE EXECUTE ON FUNCTION vrtc_audit_purge(text, bigint, text, timestamptz, text) FROM PUBLIC;
