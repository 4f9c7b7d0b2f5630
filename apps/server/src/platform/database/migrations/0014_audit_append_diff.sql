-- A change and its audit event in one statement (apps/server/src/audit/audit.ts, updateAudited):
-- the UPDATE returns the fields as they were and as they are, and this function writes the event
-- with what changed, so the console's edits need no transaction of their own, no locked read
-- before the change and no round trip for the event (the event still commits or rolls back with
-- the change: it is the same statement).
-- The changes are built here as the server builds them (audit.ts changedFields): the listed
-- fields whose value differs, field -> [before, after], in the order given (the server sorts
-- them), and the canonical JSON of that object goes into the event's hash between the content
-- the server sent before and after it, so verify hashes it alike. Values are text, numbers,
-- booleans or null, whose JSON is the same in PostgreSQL and in JavaScript.
CREATE FUNCTION vrtc_audit_append_diff(
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
  p_fields jsonb,
  p_before jsonb,
  p_after jsonb,
  p_ip text,
  p_user_agent text,
  p_request_id text,
  p_content_before_changes text,
  p_content_before_seq text,
  p_content_after_seq text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_changes jsonb;
  v_canonical text;
BEGIN
  SELECT
    COALESCE(jsonb_object_agg(f.name, jsonb_build_array(
      COALESCE(p_before -> f.name, 'null'::jsonb), COALESCE(p_after -> f.name, 'null'::jsonb))),
      '{}'::jsonb),
    '{' || COALESCE(string_agg(
      to_json(f.name)::text || ':[' || COALESCE(p_before -> f.name, 'null'::jsonb)::text || ','
        || COALESCE(p_after -> f.name, 'null'::jsonb)::text || ']',
      ',' ORDER BY f.n), '') || '}'
  INTO v_changes, v_canonical
  FROM jsonb_array_elements_text(p_fields) WITH ORDINALITY AS f(name, n)
  WHERE (p_before -> f.name) IS DISTINCT FROM (p_after -> f.name);
  RETURN vrtc_audit_append(p_id, p_chain, p_at, p_organization_id, p_actor_type, p_actor_id,
    p_actor_email, p_actor_role, p_action, p_outcome, p_target_type, p_target_id, p_target_label,
    v_changes, p_ip, p_user_agent, p_request_id,
    p_content_before_changes || v_canonical || p_content_before_seq, p_content_after_seq);
END
$$;
