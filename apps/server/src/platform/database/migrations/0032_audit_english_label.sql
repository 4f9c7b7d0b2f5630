-- An event names its target in English too, when the target has an English name (a scenario, a
-- module, a level, an option, a qualification, a session's content): the English console shows
-- that name instead of the Russian one (issue 42, "Both languages everywhere").
--
-- The English label is part of the event's content, so the chain covers it like the Russian one:
-- the writer puts `target_label_en` in the canonical JSON it sends (only when there is one), and
-- verify reads it back from this column. An event written before, or without an English name,
-- has null here and no such key in its content, so its hash is what it always was.
--
-- On PostgreSQL with the audit tables owned by another role (docs/operations.md, "The audit log's
-- purge role"), this migration must be run by that role's owner.

ALTER TABLE audit_events ADD COLUMN target_label_en text;

-- As 0015, with the English label as a last parameter. Its default keeps a caller of the
-- nineteen parameters (a server process not yet upgraded) writing events as before.
DROP FUNCTION vrtc_audit_append(uuid, text, timestamptz, uuid, text, uuid, text, text, text, text,
  text, text, text, jsonb, text, text, text, text, text);

CREATE FUNCTION vrtc_audit_append(
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
  p_content_after_seq text,
  p_target_label_en text DEFAULT NULL
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
        actor_email, actor_role, action, outcome, target_type, target_id, target_label,
        target_label_en, changes, ip, user_agent, request_id, content_hash)
      VALUES (p_id, p_chain, p_at, p_organization_id, p_actor_type, p_actor_id, p_actor_email,
        p_actor_role, p_action, p_outcome, p_target_type, p_target_id, p_target_label,
        p_target_label_en, p_changes, p_ip, p_user_agent, p_request_id,
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
    actor_email, actor_role, action, outcome, target_type, target_id, target_label,
    target_label_en, changes, ip, user_agent, request_id, prev_hash, hash)
  VALUES (p_id, p_chain, v_seq, p_at, p_organization_id, p_actor_type, p_actor_id,
    p_actor_email, p_actor_role, p_action, p_outcome, p_target_type, p_target_id, p_target_label,
    p_target_label_en, p_changes, p_ip, p_user_agent, p_request_id, v_prev, v_hash);
  RETURN v_seq;
END
$$;
