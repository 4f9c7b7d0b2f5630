-- The compliance view's totals without reading every assignment (docs/compliance.md, "At scale").
--
-- How many assignments of each qualification keep each kind of pieces (revoked, not_qualified,
-- pending_evaluation, complete): a trigger on qualification_assignments adds and takes away in
-- the transaction of every statement that inserts, deletes or changes an assignment's kept kind,
-- whichever change of the record caused it (a session, a signature, a revocation, a changed
-- requirement through migration 0030's triggers; an assignment made or removed; a trainee or
-- organisation deleted, by cascade). Nothing here is a status: a complete set's status at T
-- (qualified, expiring, expired) and `overdue` are still computed when read, by ranges of the
-- indexes below against the qualification's validity at T.
CREATE TABLE qualification_standing_counts (
  organization_id uuid NOT NULL,
  qualification_id uuid NOT NULL,
  kind text NOT NULL,
  assignments integer NOT NULL CHECK (assignments >= 0),
  PRIMARY KEY (qualification_id, kind)
);
CREATE INDEX qualification_standing_counts_organization_idx
  ON qualification_standing_counts (organization_id);

-- Adds `delta` rows' kinds, then takes away the counts that reached zero. Each change is one
-- UPDATE or INSERT … ON CONFLICT of its row, so a transaction waiting for another's lock adds to
-- the value that one left. Keys are taken in one order, so two transactions changing the same
-- counts wait for each other instead of deadlocking.
CREATE FUNCTION qualification_standing_counts_add(changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO qualification_standing_counts AS c (organization_id, qualification_id, kind, assignments)
  SELECT x.organization_id, x.qualification_id, x.kind, x.delta
  FROM jsonb_to_recordset(changes) AS x (organization_id uuid, qualification_id uuid, kind text, delta int)
  WHERE x.delta > 0
  ORDER BY x.qualification_id, x.kind
  ON CONFLICT (qualification_id, kind) DO UPDATE SET assignments = c.assignments + excluded.assignments;
  UPDATE qualification_standing_counts c SET assignments = c.assignments + x.delta
  FROM (SELECT * FROM jsonb_to_recordset(changes)
      AS x (organization_id uuid, qualification_id uuid, kind text, delta int)
    WHERE x.delta < 0 ORDER BY x.qualification_id, x.kind) x
  WHERE c.qualification_id = x.qualification_id AND c.kind = x.kind;
  DELETE FROM qualification_standing_counts c WHERE c.assignments = 0
    AND (c.qualification_id, c.kind) IN (SELECT x.qualification_id, x.kind
      FROM jsonb_to_recordset(changes) AS x (qualification_id uuid, kind text, delta int)
      WHERE x.delta < 0);
$$;

CREATE FUNCTION qualification_standing_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(d) INTO changes FROM (
      SELECT organization_id, qualification_id, standing_kind AS kind, count(*)::int AS delta
      FROM new_rows GROUP BY 1, 2, 3) d;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(d) INTO changes FROM (
      SELECT organization_id, qualification_id, standing_kind AS kind, -count(*)::int AS delta
      FROM old_rows GROUP BY 1, 2, 3) d;
  ELSE
    SELECT jsonb_agg(d) INTO changes FROM (
      SELECT organization_id, qualification_id, kind, sum(delta)::int AS delta FROM (
        SELECT organization_id, qualification_id, standing_kind AS kind, 1 AS delta FROM new_rows
        UNION ALL
        SELECT organization_id, qualification_id, standing_kind, -1 FROM old_rows
      ) moved GROUP BY 1, 2, 3 HAVING sum(delta) <> 0) d;
  END IF;
  IF changes IS NOT NULL THEN
    PERFORM qualification_standing_counts_add(changes);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER qualification_assignments_counted_insert AFTER INSERT ON qualification_assignments
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_counted();
CREATE TRIGGER qualification_assignments_counted_update AFTER UPDATE ON qualification_assignments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_counted();
CREATE TRIGGER qualification_assignments_counted_delete AFTER DELETE ON qualification_assignments
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION qualification_standing_counted();

INSERT INTO qualification_standing_counts (organization_id, qualification_id, kind, assignments)
SELECT organization_id, qualification_id, standing_kind, count(*)::int
FROM qualification_assignments GROUP BY 1, 2, 3;

-- A complete set's status at T is a range of its oldest piece: expired up to T − validity,
-- expiring up to T − validity + expiring_within_days. Counted per qualification from here.
CREATE INDEX qualification_assignments_complete_idx
  ON qualification_assignments (qualification_id, standing_oldest_at)
  WHERE standing_kind = 'complete';
-- Overdue at T: the assignments due before T that do not hold the qualification then.
CREATE INDEX qualification_assignments_due_idx
  ON qualification_assignments (qualification_id, due_at) INCLUDE (standing_kind, standing_oldest_at)
  WHERE due_at IS NOT NULL;
-- A trainee's assignments with what their status needs, from the index alone (the totals of a
-- name search read the matching trainees' rows this way); it replaces the plain index of 0016.
DROP INDEX qualification_assignments_vr_user_idx;
CREATE INDEX qualification_assignments_vr_user_idx ON qualification_assignments (vr_user_id)
  INCLUDE (qualification_id, organization_id, due_at, standing_kind, standing_oldest_at, standing_since);
