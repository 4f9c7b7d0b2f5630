-- The audit log's writer in one statement (apps/server/src/audit/audit.ts, recordAudit): the
-- server sends an event's content as canonical JSON cut around its seq, and the database takes the
-- chain's next seq (locking the chain's head until the transaction ends, as before), computes the
-- event's hash over the hash before it and the content with that seq (one UPDATE of the head),
-- and writes the event. Before, the server did this in two round trips (take the head, then
-- write) and the head was updated twice; one call saves the console's changes a round trip, an
-- UPDATE and their plans (PL/pgSQL keeps its plans per connection).
-- The hash is the same as before, sha256 of "<hash before>\n<canonical JSON>", so chains written
-- either way verify alike.
-- The head keeps the hash before its last event too, so one UPDATE moves it and answers both.
ALTER TABLE audit_chain_heads ADD COLUMN prev_hash text;

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
    -- Every right-hand side reads the row as it was: the hash before is kept as prev_hash.
    UPDATE audit_chain_heads
      SET seq = seq + 1,
          prev_hash = hash,
          hash = encode(sha256(convert_to(
            hash || E'\n' || p_content_before_seq || (seq + 1)::text || p_content_after_seq,
            'UTF8')), 'hex')
      WHERE chain = p_chain
      RETURNING seq, prev_hash, hash INTO v_seq, v_prev, v_hash;
    EXIT WHEN FOUND;
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
