-- The audit log's writer in one statement (apps/server/src/audit/audit.ts, recordAudit): the
-- server sends an event's content as canonical JSON cut around its seq, and the database takes the
-- chain's next seq (locking the chain's head until the transaction ends, as before), computes the
-- event's hash over the hash before it and the content with that seq, writes the event and moves
-- the head. Before, the server did this in two round trips (take the head, then write); one saves
-- the console's changes a round trip and a plan each (PL/pgSQL keeps its plans per connection).
-- The hash is the same as before, sha256 of "<hash before>\n<canonical JSON>", so chains written
-- either way verify alike.
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
  p_content_after_seq text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
  v_prev text;
  v_hash text;
BEGIN
  LOOP
    UPDATE audit_chain_heads SET seq = seq + 1 WHERE chain = p_chain
      RETURNING seq, hash INTO v_seq, v_prev;
    EXIT WHEN FOUND;
    -- The chain's first event: a writer that raced here waits on the key, then finds the row.
    INSERT INTO audit_chain_heads (chain, seq, hash) VALUES (p_chain, 0, repeat('0', 64))
      ON CONFLICT (chain) DO NOTHING;
  END LOOP;
  v_hash := encode(sha256(convert_to(
    v_prev || E'\n' || p_content_before_seq || v_seq::text || p_content_after_seq, 'UTF8')), 'hex');
  INSERT INTO audit_events (id, chain, seq, at, organization_id, actor_type, actor_id,
    actor_email, actor_role, action, outcome, target_type, target_id, target_label, changes,
    ip, user_agent, request_id, prev_hash, hash)
  VALUES (p_id, p_chain, v_seq, p_at, p_organization_id, p_actor_type, p_actor_id,
    p_actor_email, p_actor_role, p_action, p_outcome, p_target_type, p_target_id, p_target_label,
    p_changes, p_ip, p_user_agent, p_request_id, v_prev, v_hash);
  UPDATE audit_chain_heads SET hash = v_hash WHERE chain = p_chain;
  RETURN v_seq;
END
$$;
