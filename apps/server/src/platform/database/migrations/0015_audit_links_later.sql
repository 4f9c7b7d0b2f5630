-- Writers of one organisation no longer wait for each other's commit (decision 027). Until now
-- each writer held its chain's head from its event to its commit, so one organisation's changes
-- committed one at a time (their WAL flushes in a row). Now a writer that finds the head held by
-- another open transaction does not wait: it writes its event with a hash of its own content
-- (content_hash, no seq yet) and queues it in audit_unlinked; the linker (vrtc_audit_link, run
-- every second by each server and before verify and the purge) gives it the next seq of its chain
-- and a link in audit_links whose hash covers the hash before it, its seq and content_hash. A
-- writer that finds the head free links its event at once, as before, so one writer at a time
-- (and PGlite, a single connection) writes exactly what it wrote before.
--
-- A chain's very first event creates its head; a writer beside that one waits for its commit (once
-- in an organisation's life, at its creation).
--
-- So every event is under a hash from its commit: an event linked at once by its own hash, an
-- event waiting for the linker by content_hash, which verify checks as it checks the chain.

ALTER TABLE audit_events
  ALTER COLUMN seq DROP NOT NULL,
  ALTER COLUMN prev_hash DROP NOT NULL,
  ALTER COLUMN hash DROP NOT NULL,
  ADD COLUMN content_hash text,
  ADD CONSTRAINT audit_events_linked_or_hashed CHECK (
    (seq IS NOT NULL AND prev_hash IS NOT NULL AND hash IS NOT NULL AND content_hash IS NULL)
    OR (seq IS NULL AND prev_hash IS NULL AND hash IS NULL AND content_hash IS NOT NULL)
  );

-- The links the linker gave: each event of audit_events without a seq has one here once linked.
-- Append-only like the events (the purge alone deletes, with them).
CREATE TABLE audit_links (
  event_id uuid PRIMARY KEY,
  chain text NOT NULL,
  seq bigint NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL,
  CONSTRAINT audit_links_chain_seq_key UNIQUE (chain, seq)
);
CREATE TRIGGER audit_links_append_only BEFORE UPDATE OR DELETE ON audit_links
  FOR EACH ROW EXECUTE FUNCTION vrtc_audit_append_only();
CREATE TRIGGER audit_links_no_truncate BEFORE TRUNCATE ON audit_links
  FOR EACH STATEMENT EXECUTE FUNCTION vrtc_audit_append_only();

-- The events waiting for the linker, in the order they were written. A row whose event is gone
-- stays, and verify names it: an event removed before it was linked is not lost from view.
CREATE TABLE audit_unlinked (
  event_id uuid PRIMARY KEY,
  chain text NOT NULL,
  queued bigint GENERATED ALWAYS AS IDENTITY
);

-- As 0013, but a head held by another transaction is not waited for (SKIP LOCKED): the event is
-- written with content_hash, over its canonical JSON with a null seq, and queued. Answers the
-- event's seq, or null when it waits for the linker.
CREATE OR REPLACE FUNCTION vrtc_audit_append(
  p_id uuid,
  p_chain text,
  p_at timestamptz,
  p_organization_id uuid,
  p_actor_type text,
  p_actor_id uuid,
  p_actor_email text,
  p_actor_role text,
  p_action text,
  p_outcome text,
  p_target_type text,
  p_target_id text,
  p_target_label text,
  p_changes jsonb,
  p_ip text,
  p_user_agent text,
  p_request_id text,
  p_content_before_seq text,
  p_content_after_seq text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
  v_prev text;
  v_hash text;
BEGIN
  LOOP
    UPDATE audit_chain_heads AS head
      SET seq = head.seq + 1,
          prev_hash = head.hash,
          hash = encode(sha256(convert_to(
            head.hash || E'\n' || p_content_before_seq || (head.seq + 1)::text
              || p_content_after_seq, 'UTF8')), 'hex')
      FROM (SELECT chain FROM audit_chain_heads WHERE chain = p_chain FOR UPDATE SKIP LOCKED) free
      WHERE head.chain = free.chain
      RETURNING head.seq, head.prev_hash, head.hash INTO v_seq, v_prev, v_hash;
    EXIT WHEN FOUND;
    IF EXISTS (SELECT 1 FROM audit_chain_heads WHERE chain = p_chain) THEN
      -- Held by another open transaction: written now, linked by vrtc_audit_link.
      INSERT INTO audit_events (id, chain, at, organization_id, actor_type, actor_id,
        actor_email, actor_role, action, outcome, target_type, target_id, target_label, changes,
        ip, user_agent, request_id, content_hash)
      VALUES (p_id, p_chain, p_at, p_organization_id, p_actor_type, p_actor_id, p_actor_email,
        p_actor_role, p_action, p_outcome, p_target_type, p_target_id, p_target_label, p_changes,
        p_ip, p_user_agent, p_request_id,
        encode(sha256(convert_to(p_content_before_seq || 'null' || p_content_after_seq, 'UTF8')),
          'hex'));
      INSERT INTO audit_unlinked (event_id, chain) VALUES (p_id, p_chain);
      RETURN NULL;
    END IF;
    -- The chain's first event: a writer that raced here waits on the key, then finds the row.
    INSERT INTO audit_chain_heads (chain, seq, hash) VALUES (p_chain, 0, repeat('0', 64))
      ON CONFLICT (chain) DO NOTHING;
  END LOOP;
  INSERT INTO audit_events (id, chain, seq, at, organization_id, actor_type, actor_id,
    actor_email, actor_role, action, outcome, target_type, target_id, target_label, changes,
    ip, user_agent, request_id, prev_hash, hash)
  VALUES (p_id, p_chain, v_seq, p_at, p_organization_id, p_actor_type, p_actor_id,
    p_actor_email, p_actor_role, p_action, p_outcome, p_target_type, p_target_id, p_target_label,
    p_changes, p_ip, p_user_agent, p_request_id, v_prev, v_hash);
  RETURN v_seq;
END
$$;

-- The linker: links the queued events, chain by chain in the order they were written, each onto
-- its chain's head (waiting for a writer that holds it: writers never wait, so this cannot
-- deadlock with them). One linker at a time across processes; another one's turn is skipped.
-- A queued event that is gone stays queued (verify names it). Answers how many it linked.
CREATE FUNCTION vrtc_audit_link() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_event record;
  v_chain text;
  v_seq bigint;
  v_prev text;
  v_hash text;
  v_linked integer := 0;
BEGIN
  IF NOT pg_try_advisory_xact_lock(7310005) THEN
    RETURN 0;
  END IF;
  FOR v_event IN
    SELECT queue.event_id, queue.chain, event.content_hash
    FROM audit_unlinked queue JOIN audit_events event ON event.id = queue.event_id
    ORDER BY queue.chain, queue.queued
  LOOP
    IF v_chain IS DISTINCT FROM v_event.chain THEN
      IF v_chain IS NOT NULL THEN
        UPDATE audit_chain_heads SET seq = v_seq, prev_hash = v_prev, hash = v_hash
          WHERE chain = v_chain;
      END IF;
      v_chain := v_event.chain;
      SELECT seq, hash INTO v_seq, v_hash FROM audit_chain_heads WHERE chain = v_chain FOR UPDATE;
    END IF;
    v_prev := v_hash;
    v_seq := v_seq + 1;
    v_hash := encode(sha256(convert_to(
      v_prev || E'\n' || v_seq::text || E'\n' || v_event.content_hash, 'UTF8')), 'hex');
    INSERT INTO audit_links (event_id, chain, seq, prev_hash, hash)
      VALUES (v_event.event_id, v_chain, v_seq, v_prev, v_hash);
    DELETE FROM audit_unlinked WHERE event_id = v_event.event_id;
    v_linked := v_linked + 1;
  END LOOP;
  IF v_chain IS NOT NULL THEN
    UPDATE audit_chain_heads SET seq = v_seq, prev_hash = v_prev, hash = v_hash
      WHERE chain = v_chain;
  END IF;
  RETURN v_linked;
END
$$;

-- updateAudited (audit.ts) now finds what changed in its own statement and calls
-- vrtc_audit_append: the function of 0014 is no longer called.
DROP FUNCTION vrtc_audit_append_diff(uuid, text, timestamptz, uuid, text, uuid, text, text, text,
  text, text, text, text, jsonb, jsonb, jsonb, text, text, text, text, text, text);
